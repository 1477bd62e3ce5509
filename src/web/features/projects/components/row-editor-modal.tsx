import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Context, Log } from '../../../../shared/projects.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useAddRow, useUpdateRow } from '../api.ts';
import { editText, parseValue } from '../model.ts';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import type { Fields } from '../../../data/rows.ts';

interface Field {
  column: string;
  text: string;
  /** Given for an existing column, so a cleared value can be sent as null. */
  had: boolean;
}

function hintFor(context: Context, column: string, fields: Fields | undefined, locked: boolean): string | undefined {
  const type = context.unique_key_types[column];
  const parts = [];
  const field = fields?.[column];
  if (field && field.data_type !== 'Any' && !type) parts.push(field.data_type);
  if (locked) parts.push('Immutable: set once, it cannot be changed');
  if (type) parts.push(`Unique key${type === 'any' ? '' : `, ${type}`}`);
  if (column in context.auto_counting) {
    const parent = context.auto_counting[column];
    parts.push(`Counter${parent ? ` within ${parent}` : ''}: leave empty to fill automatically`);
  }
  return parts.join(' · ') || undefined;
}

/**
 * Adds or edits one row. Each column is a text box: declared types are read as such; other values are
 * read as JSON when they look like it (numbers, true/false, objects) and as text otherwise. Server
 * errors land on the column they name; a unique-key clash marks every key column. Fields the logs API
 * marks immutable (`fields`) are shown but cannot be changed once set; with `readOnlyReason` nothing can.
 */
export function RowEditorModal({
  project,
  context,
  columns,
  row,
  opened,
  onClose,
  fieldInfo,
  readOnlyReason,
}: {
  project: string;
  context: Context;
  columns: string[];
  /** The context's fields (the logs API's listFields): types and mutability. */
  fieldInfo?: Fields;
  /** Why this person may only look (no write permission): the row is shown, not editable. */
  readOnlyReason?: string | null;
  /** null: a new row. */
  row: Log | null;
  opened: boolean;
  onClose: () => void;
}) {
  const add = useAddRow(project, context.name);
  const update = useUpdateRow(project, context.name);
  const [fields, setFields] = useState<Field[]>([]);
  const [newColumn, setNewColumn] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const pending = add.isPending || update.isPending;
  const readOnly = !!readOnlyReason && !!row;
  const locked = (f: Field) => readOnly || (!!row && f.had && fieldInfo?.[f.column]?.mutable === false);

  // Opening (or another row, or new columns) fills the form afresh: state adjusted while rendering.
  const [filledFor, setFilledFor] = useState<{ opened: boolean; row: Log | null; columns: string[] } | null>(null);
  if (!filledFor || filledFor.opened !== opened || filledFor.row !== row || filledFor.columns !== columns) {
    setFilledFor({ opened, row, columns });
    if (opened) {
      const names = [...new Set([...columns, ...Object.keys(row?.entries ?? {})])];
      setFields(names.map((column) => ({ column, text: row && column in row.entries ? editText(row.entries[column]) : '', had: !!row && column in row.entries })));
      setErrors({});
      setFormError(null);
      setNewColumn('');
    }
  }

  const setText = (column: string, text: string) => {
    setFields((prev) => prev.map((f) => (f.column === column ? { ...f, text } : f)));
    setErrors((prev) => {
      const { [column]: _gone, ...rest } = prev;
      return rest;
    });
  };

  const addColumn = () => {
    const name = newColumn.trim();
    if (!name) return setErrors((e) => ({ ...e, __new: 'Give the column a name.' }));
    if (fields.some((f) => f.column === name)) return setErrors((e) => ({ ...e, __new: 'This column is already in the row.' }));
    setFields((prev) => [...prev, { column: name, text: '', had: false }]);
    setNewColumn('');
    setErrors(({ __new: _gone, ...rest }) => rest);
  };

  const submit = async () => {
    // Without prototypes: a column named __proto__ is set like any other.
    const entries = Object.create(null) as Record<string, unknown>;
    const problems = Object.create(null) as Record<string, string>;
    for (const f of fields) {
      const previous = row?.entries[f.column];
      if (f.text === '') {
        if (f.had) entries[f.column] = null;
        continue;
      }
      if (row && f.had && f.text === editText(previous)) continue;
      if (locked(f)) continue;
      const parsed = parseValue(f.text, context.unique_key_types[f.column], previous);
      if ('error' in parsed) problems[f.column] = parsed.error;
      else entries[f.column] = parsed.value;
    }
    setErrors(problems);
    if (Object.keys(problems).length) return setFormError('Fix the highlighted values.');
    if (!row && Object.keys(entries).length === 0 && Object.keys(context.auto_counting).length === 0) return setFormError('Give the row at least one value.');
    if (row && Object.keys(entries).length === 0) return onClose();
    setFormError(null);
    try {
      if (row) await update.mutateAsync({ id: row.id, entries });
      else await add.mutateAsync(entries);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // A unique-key or duplicate clash: say so on the fields that make the key.
        const keyColumns = context.unique_keys;
        if (/unique key/.test(error.detail)) setErrors(Object.fromEntries(keyColumns.map((k) => [k, 'Another row already has this value for the unique key.'])));
        setFormError(error.detail.replace(/ \(row \d+\)\.$/, '.'));
        return;
      }
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length) {
        const mapped = Object.create(null) as Record<string, string>;
        const rest: string[] = [];
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          const column = path.replace(/^entries\.(\d+\.)?/, '');
          if (fields.some((f) => f.column === column)) mapped[column] = message;
          else rest.push(column in context.unique_key_types ? `${column}: ${message}` : message);
        }
        setErrors(mapped);
        setFormError(rest.length ? rest.join('; ') : 'Fix the highlighted values.');
        return;
      }
      setFormError(errorMessage(error));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={row ? `${readOnly ? 'Row' : 'Edit row'} ${row.id}` : 'Add a row'}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          {readOnly && (
            <Text size="sm" c="dimmed">
              {readOnlyReason}
            </Text>
          )}
          <Text size="xs" c="dimmed" hidden={readOnly}>
            Numbers, true/false and JSON are stored as such; other text is stored as text.{' '}
            {row ? 'Empty a field to clear that column.' : 'Leave a field empty to leave it out.'}
          </Text>
          {fields.map((f, index) => (
            <TextInput
              key={f.column}
              label={f.column}
              description={hintFor(context, f.column, fieldInfo, locked(f) && !readOnly)}
              readOnly={locked(f)}
              required={f.column in context.unique_key_types && !(f.column in context.auto_counting)}
              value={f.text}
              error={errors[f.column]}
              onChange={(e) => setText(f.column, e.currentTarget.value)}
              autoComplete="off"
              data-autofocus={index === 0 ? true : undefined}
              rightSection={
                !f.had && !columns.includes(f.column) ? (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={`Remove column ${f.column}`}
                    onClick={() => setFields((prev) => prev.filter((x) => x.column !== f.column))}
                  >
                    <IconTrash size={14} aria-hidden />
                  </ActionIcon>
                ) : undefined
              }
            />
          ))}
          <Group align="flex-end" gap="xs" hidden={readOnly}>
            <TextInput
              label="New column"
              placeholder="column name"
              value={newColumn}
              error={errors.__new}
              onChange={(e) => setNewColumn(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addColumn();
                }
              }}
              style={{ flex: 1 }}
              autoComplete="off"
            />
            <Button variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={addColumn} mb={errors.__new ? 22 : 0}>
              Add column
            </Button>
          </Group>
          {readOnly ? (
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          ) : (
            <ModalFormFooter
              error={formError}
              errorTitle={row ? 'The row was not saved' : 'The row was not added'}
              onCancel={onClose}
              submitLabel={row ? 'Save row' : 'Add row'}
              submitting={pending}
            />
          )}
        </Stack>
      </form>
    </Modal>
  );
}
