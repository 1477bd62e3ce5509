import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';

// The logs API spoken over HTTP as the platform's Python SDK speaks it (logs-api.md §4, §6, §12: its bodies,
// parameter names and the keys it reads), against the real server; then the dashboard's log explorer shows
// the very logs the API answers.

interface Log {
  id: number;
  ts: string | null;
  entries: Record<string, unknown>;
  derived_entries: Record<string, unknown>;
}

/** What `log(**entries)` sends: every field with explicit_types {mutable: true}. */
const sdkEntry = (entries: Record<string, unknown>) => ({
  ...entries,
  explicit_types: Object.fromEntries(Object.keys(entries).map((k) => [k, { mutable: true }])),
});

test('a client speaking the logs contract logs, filters, groups, updates, deletes, renames, commits and rolls back; the explorer shows the same logs', async ({
  page,
  roster,
}) => {
  test.slow();
  const user = await roster.createUser({ name: 'Sam Sdk' });
  const api = roster.api(user.api_key);
  const P = unique('sdk').replace(/[^a-zA-Z0-9_-]/g, '-');
  const q = (params: Record<string, string>) => new URLSearchParams({ project_name: P, ...params }).toString();
  const read = (params: Record<string, string>) => api.get<{ logs: Log[]; count: number }>(`/v0/logs?${q({ context: 'evals', offset: '0', ...params })}`);

  // create_project, then set_context as the SDK sends it (unset values are null).
  expect(await api.post('/v0/project', { name: P, is_versioned: true })).toHaveProperty('info');
  await api.post(`/v0/project/${P}/contexts`, {
    name: 'evals',
    description: 'model evaluations',
    is_versioned: true,
    allow_duplicates: true,
    unique_keys: null,
    auto_counting: null,
    foreign_keys: null,
  });

  // create_logs: one batch, the context as an object.
  const models = ['alpha', 'beta'];
  const created = await api.post<{ log_event_ids: number[] }>('/v0/logs', {
    project_name: P,
    context: { name: 'evals' },
    entries: Array.from({ length: 6 }, (_, i) => sdkEntry({ question: `q${i}`, model: models[i % 2], score: i / 10 })),
  });
  const ids = created.log_event_ids;
  expect(ids).toHaveLength(6);

  // get_logs, the 2026-04 release's way (filter_expr, no limit) and the current one's (filter, limit=1000).
  const high = await read({ filter_expr: 'score >= 0.3', return_ids_only: 'False', column_context: '' });
  expect(high.logs.map((l) => l.id)).toEqual([ids[5], ids[4], ids[3]]);
  expect(high.logs[0]).toEqual({ id: ids[5], ts: expect.any(String), entries: { question: 'q5', model: 'beta', score: 0.5 }, derived_entries: {} });
  expect(await api.get(`/v0/logs?${q({ context: 'evals', filter: "'alpha' in model and score < 0.3", limit: '1000', offset: '0', return_ids_only: 'True' })}`)).toEqual([
    ids[2],
    ids[0],
  ]);

  // get_logs grouped by model, and a metric per group.
  const grouped = (await read({ group_by: 'model', nested_groups: 'True', group_offset: '0' })) as unknown as {
    logs: { model: { group: { key: string; value: Log[] }[]; group_count: number } };
  };
  expect(grouped.logs.model.group_count).toBe(2);
  expect(grouped.logs.model.group.map((g) => [g.key, g.value.map((l) => l.id)])).toEqual(
    expect.arrayContaining([
      ['alpha', [ids[4], ids[2], ids[0]]],
      ['beta', [ids[5], ids[3], ids[1]]],
    ]),
  );
  // Each group's leaf holds the value under the metric's name.
  const means = await api.get<Record<string, { mean: number }>>(`/v0/logs/metric/mean?${q({ context: 'evals', key: 'score', group_by: 'model' })}`);
  expect(means.alpha!.mean).toBeCloseTo(0.2);
  expect(means.beta!.mean).toBeCloseTo(0.3);

  // update_logs (overwrite), delete_logs (whole logs), rename_field.
  await api.put('/v0/logs', { logs: [ids[0]], context: null, overwrite: true, entries: [{ score: 0.9 }] });
  await api.delete('/v0/logs?delete_empty_logs=False', { project_name: P, context: 'evals', ids_and_fields: [[[ids[1]], null]], source_type: 'all' });
  await api.patch('/v0/logs/rename_field', { project_name: P, context: 'evals', old_field_name: 'question', new_field_name: 'prompt' });
  expect(Object.keys(await api.get<Record<string, unknown>>(`/v0/logs/fields?${q({ context: 'evals' })}`))).toEqual(['prompt', 'model', 'score']);

  // commit_context, a log written after it, rollback_context: the later log is gone again.
  const { commit_hash } = await api.post<{ commit_hash: string }>(`/v0/project/${P}/contexts/evals/commit`, { commit_message: 'five evaluations' });
  const later = await api.post<{ log_event_ids: number[] }>('/v0/logs', {
    project_name: P,
    context: { name: 'evals' },
    entries: sdkEntry({ prompt: 'late', model: 'gamma', score: 1 }),
  });
  expect((await read({})).count).toBe(6);
  await api.post(`/v0/project/${P}/contexts/evals/rollback`, { commit_hash });
  const final = await read({ limit: '1000' });
  expect(final.count).toBe(5);
  expect(final.logs.map((l) => l.id)).not.toContain(later.log_event_ids[0]);
  expect(final.logs.find((l) => l.id === ids[0])?.entries).toEqual({ prompt: 'q0', model: 'alpha', score: 0.9 });

  // The explorer: the same five logs, the renamed column, the updated value, and the same filter's answer.
  await signIn(page, user.api_key, `/projects/${P}/contexts/evals`);
  await expect(page.getByRole('heading', { level: 1, name: 'evals' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Rows of evals' });
  const count = page.getByRole('status').filter({ hasText: /logs?( match)?$/ });
  await expect(count).toHaveText('5 logs');
  await expect(table.getByRole('columnheader', { name: /^prompt\b/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /^question\b/ })).toHaveCount(0);
  for (const log of final.logs) await expect(table.getByRole('row').filter({ hasText: String(log.entries.prompt) })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: 'q0' })).toContainText('0.9');
  await expect(table.getByRole('row').filter({ hasText: 'q1' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'late' })).toHaveCount(0);

  const filter = page.getByRole('textbox', { name: 'Filter' });
  await filter.fill('score >= 0.3');
  await filter.press('Enter');
  const matching = (await read({ filter: 'score >= 0.3' })).count;
  await expect(count).toHaveText(`${matching} logs match`);
  await checkA11y(page);
});
