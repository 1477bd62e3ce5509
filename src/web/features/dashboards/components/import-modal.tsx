import { Alert, Badge, Button, Group, List, Modal, Select, Stack, Switch, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconFileUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { ImportTemplateResponse, TemplateIssue } from '../../../../shared/tiles.ts';
import { checkTemplateText } from '../template-file.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { contextMutations, contextQueries } from '../../../data/contexts.ts';
import { projectQueries } from '../../../data/projects.ts';
import { tileQueries } from '../../../data/tiles.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { useImportTemplate, validationResultOf } from '../api.ts';
import { FileDropZone } from '../../../components/file-drop-zone.tsx';
import { ErrorText } from '../../../components/error-text.tsx';

const NEW_TAB = '__new__';
/** The context choice that creates the template's context in the target project. */
const CREATE_CONTEXT = '__create__';
const MAX_FILE_BYTES = 1024 * 1024;

function IssuesTable({ issues }: { issues: TemplateIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <Table withTableBorder fz="sm" aria-label="Validation issues">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Level</Table.Th>
          <Table.Th scope="col">Component</Table.Th>
          <Table.Th scope="col">Message</Table.Th>
          <Table.Th scope="col">Suggested fix</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {issues.map((i, n) => (
          <Table.Tr key={n}>
            <Table.Td>
              <Badge size="sm" color={i.level === 'error' ? 'red' : 'yellow'} variant="light">
                {i.level}
              </Badge>
            </Table.Td>
            <Table.Td>{i.component}</Table.Td>
            <Table.Td>{i.message}</Table.Td>
            <Table.Td>{i.suggested_fix ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface ImportedTile {
  project: string;
  interfaceId: string | null;
  tab_id: string;
  tile_id: string;
}

/** Import: drop or paste a template, check it here, choose where it goes, and read what the server did. */
export function ImportModal({
  opened,
  onClose,
  project: currentProject,
  defaultInterfaceId,
  defaultTabId,
  onShowTile,
}: {
  opened: boolean;
  onClose: () => void;
  project: string;
  defaultInterfaceId: string | null;
  defaultTabId: string | null;
  onShowTile: (ids: ImportedTile) => void;
}) {
  const [text, setText] = useState('');
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [project, setProject] = useState(currentProject);
  const [interfaceId, setInterfaceId] = useState<string | null>(defaultInterfaceId);
  const [tabChoice, setTabChoice] = useState<string | null>(defaultTabId);
  const [newTabName, setNewTabName] = useState('');
  const [validateFirst, setValidateFirst] = useState(true);
  const [autoSanitize, setAutoSanitize] = useState(true);
  const [overwrite, setOverwrite] = useState(false);
  const [newTileName, setNewTileName] = useState('');
  const [renameTo, setRenameTo] = useState('');
  const [contextChoice, setContextChoice] = useState<string | null>(null);
  const [result, setResult] = useState<ImportTemplateResponse | null>(null);
  const [targetError, setTargetError] = useState<string | null>(null);
  const importer = useImportTemplate();
  const createContext = useApiMutation(contextMutations.create(project));
  const projects = useQuery({ ...projectQueries.names(), enabled: opened });
  const interfaces = useQuery({ ...tileQueries.interfaces(project), enabled: opened });
  const contexts = useQuery({ ...contextQueries.list(project), enabled: opened });

  /** What the last import said belongs to the inputs it was sent with: any change clears it. */
  const clearOutcome = () => {
    setResult(null);
    importer.reset();
  };
  /** A setter that also clears the last outcome. */
  const changing =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      clearOutcome();
    };

  // Opening starts from the current project and tab (state adjusted while rendering; the mutation,
  // outside React state, is reset in an effect).
  const [wasOpened, setWasOpened] = useState(false);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setProject(currentProject);
      setInterfaceId(defaultInterfaceId);
      setTabChoice(defaultTabId);
      setContextChoice(null);
      setResult(null);
    }
  }
  useEffect(() => {
    if (opened) importer.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const check = useMemo(() => checkTemplateText(text), [text]);
  // The template's context, when the target project lacks it: the user maps it to one it has, or creates it.
  const templateContext = check.parsed?.context ?? null;
  const missingContext = templateContext !== null && contexts.data !== undefined && !contexts.data.some((c) => c.name === templateContext) ? templateContext : null;
  const iface = interfaces.data?.find((i) => i.id === interfaceId) ?? null;
  const conflict = importer.error instanceof ApiError && importer.error.status === 409 ? importer.error : null;
  const invalid = importer.error instanceof ApiError && importer.error.status === 422 ? validationResultOf(importer.error.body) : null;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileNote(`${file.name} is larger than 1 MB; a tile template is a few kilobytes.`);
      return;
    }
    setText(await file.text());
    setFileNote(`Loaded ${file.name}.`);
    setContextChoice(null);
    clearOutcome();
  };

  const submit = async (override: { overwrite_existing?: boolean; new_tile_name?: string } = {}) => {
    if (!check.template) return;
    setTargetError(null);
    let target: { tab_id: string } | { interface_id: string; tab_name: string };
    if (tabChoice && tabChoice !== NEW_TAB) target = { tab_id: tabChoice };
    else if (interfaceId && tabChoice === NEW_TAB && newTabName.trim()) target = { interface_id: interfaceId, tab_name: newTabName.trim() };
    else {
      setTargetError(interfaceId ? 'Choose a tab or name a new one.' : 'Choose a dashboard.');
      return;
    }
    if (missingContext && !contextChoice) {
      setTargetError(`Choose a context for “${missingContext}”, or create it.`);
      return;
    }
    const name = override.new_tile_name ?? (newTileName.trim() || null);
    setResult(null);
    let contextMap: Record<string, string> | null = null;
    if (missingContext && contextChoice === CREATE_CONTEXT) {
      try {
        await createContext.mutateAsync({ name: missingContext });
      } catch (err) {
        setTargetError(`Context “${missingContext}” was not created: ${errorMessage(err)}`);
        return;
      }
    } else if (missingContext && contextChoice) contextMap = { [missingContext]: contextChoice };
    try {
      const r = await importer.mutateAsync({
        project,
        template: check.template,
        validate_first: validateFirst,
        auto_sanitize: autoSanitize,
        overwrite_existing: override.overwrite_existing ?? overwrite,
        new_tile_name: name,
        context_map: contextMap,
        ...target,
      });
      setResult(r);
      setRenameTo('');
    } catch {
      // Shown below from importer.error.
    }
  };

  const tabOptions = [...(iface?.tabs.map((t) => ({ value: t.id, label: t.name })) ?? []), { value: NEW_TAB, label: 'New tab…' }];
  const templateName = (newTileName.trim() || check.parsed?.name) ?? '';

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={onClose} title="Import a tile template" size="xl">
      <Stack>
        <FileDropZone
          icon={<IconFileUpload size={28} aria-hidden />}
          title="Drop a .tile.json file here, or click to choose one"
          hint="Or paste the JSON below."
          // By type, and by name where the system does not know .json files as JSON.
          accept={{ 'application/json': ['.json'] }}
          label="Drop a template file here or click to choose one"
          inputLabel="Template file"
          onFile={(file) => void onFile(file)}
          onReject={() => setFileNote('Drop one JSON file (.json or .tile.json).')}
        />
        {fileNote && <Text size="sm">{fileNote}</Text>}
        <Textarea
          label="Template JSON"
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setContextChoice(null);
            clearOutcome();
          }}
          autosize
          minRows={3}
          maxRows={10}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          error={check.problems.length > 0 ? 'This template cannot be imported as it is.' : undefined}
        />
        {check.problems.length > 0 && (
          <Alert color="red" variant="light" title="Checked in your browser" role="alert" icon={<IconAlertTriangle aria-hidden />}>
            <List size="sm">
              {check.problems.map((p) => (
                <List.Item key={p}>{p}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {check.parsed && (
          <Text size="sm" c="dimmed">
            {check.parsed.type} tile “{check.parsed.name}” of context {check.parsed.context ?? '(none)'}, {check.parsed.position.width}×{check.parsed.position.height} at
            column {check.parsed.position.x}.
          </Text>
        )}

        <Group grow align="flex-start">
          <Select
            label="Project"
            data={projects.data ?? [currentProject]}
            value={project}
            onChange={(v) => {
              if (!v) return;
              setProject(v);
              setInterfaceId(null);
              setTabChoice(null);
              setContextChoice(null);
              clearOutcome();
            }}
            allowDeselect={false}
            searchable
          />
          <Select
            label="Dashboard"
            data={(interfaces.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
            value={interfaceId}
            onChange={(v) => {
              setInterfaceId(v);
              setTabChoice(null);
              clearOutcome();
            }}
            allowDeselect={false}
            placeholder={interfaces.isPending ? 'Loading…' : interfaces.data?.length === 0 ? 'No dashboards in this project' : 'Choose a dashboard'}
            error={interfaces.isError ? errorMessage(interfaces.error) : undefined}
          />
          <Select label="Tab" data={tabOptions} value={tabChoice} onChange={changing(setTabChoice)} disabled={!iface} placeholder="Choose a tab" allowDeselect={false} />
        </Group>
        {tabChoice === NEW_TAB && (
          <TextInput
            label="New tab name"
            description="The tab is created in the dashboard when the import succeeds."
            value={newTabName}
            onChange={(e) => changing(setNewTabName)(e.currentTarget.value)}
            maxLength={100}
          />
        )}
        {missingContext && (
          <Select
            label={`Context for “${missingContext}”`}
            description={`Project ${project} has no context “${missingContext}”. Show the tile over one of its contexts, or create an empty “${missingContext}”.`}
            data={[...(contexts.data ?? []).map((c) => ({ value: c.name, label: c.name })), { value: CREATE_CONTEXT, label: `Create context “${missingContext}”` }]}
            value={contextChoice}
            onChange={changing(setContextChoice)}
            placeholder="Choose a context"
            allowDeselect={false}
            searchable
          />
        )}
        <ErrorText>{targetError}</ErrorText>
        <Group>
          <Switch label="Validate first" checked={validateFirst} onChange={(e) => changing(setValidateFirst)(e.currentTarget.checked)} />
          <Switch label="Auto sanitize" checked={autoSanitize} onChange={(e) => changing(setAutoSanitize)(e.currentTarget.checked)} />
          <Switch label="Overwrite existing" checked={overwrite} onChange={(e) => changing(setOverwrite)(e.currentTarget.checked)} />
        </Group>
        <TextInput
          label="New tile name"
          description="Optional: import under this name instead of the template's."
          value={newTileName}
          onChange={(e) => changing(setNewTileName)(e.currentTarget.value)}
          maxLength={255}
        />

        {conflict && (
          <Alert color="yellow" variant="light" title="Name clash" role="alert" icon={<IconAlertTriangle aria-hidden />}>
            <Stack gap="xs">
              <Text size="sm">A tile named “{templateName}” is already in this tab. Nothing was imported.</Text>
              <Group align="flex-end">
                <Button size="xs" color="red" variant="light" onClick={() => void submit({ overwrite_existing: true })} loading={importer.isPending}>
                  Replace the existing tile
                </Button>
                <TextInput
                  size="xs"
                  label="Another name"
                  value={renameTo || `${templateName} (2)`}
                  onChange={(e) => setRenameTo(e.currentTarget.value)}
                  maxLength={255}
                />
                <Button size="xs" onClick={() => void submit({ new_tile_name: (renameTo || `${templateName} (2)`).trim(), overwrite_existing: false })}>
                  Import under another name
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {importer.isError && !conflict && (
          <Alert color="red" variant="light" title={invalid ? 'The template does not fit this project' : 'Import failed'} role="alert">
            <Stack gap="xs">
              <Text size="sm">
                {!invalid
                  ? errorMessage(importer.error)
                  : autoSanitize
                    ? 'Nothing was created. Auto sanitize could not fix these errors: change the template or the target.'
                    : 'Nothing was created. Fix these errors, or turn on Auto sanitize to drop what can be dropped.'}
              </Text>
              {invalid && <IssuesTable issues={invalid.issues} />}
            </Stack>
          </Alert>
        )}
        {result && (
          <Alert color="teal" variant="light" title="Imported" role="status" icon={<IconCircleCheck aria-hidden />}>
            <Stack gap="xs">
              <Text size="sm">
                The tile was created
                {result.validation_result ? (result.validation_result.valid ? ' and the template was valid.' : ' after sanitizing.') : ' without validation.'}
              </Text>
              {result.warnings.length > 0 && (
                <>
                  <Text size="sm" fw={500}>
                    Warnings
                  </Text>
                  <List size="sm" aria-label="Import warnings">
                    {result.warnings.map((w) => (
                      <List.Item key={w}>{w}</List.Item>
                    ))}
                  </List>
                </>
              )}
              {/* After sanitizing, the errors found before it are fixed: the warnings above say how. Only a valid template's notes remain. */}
              {result.validation_result?.valid && <IssuesTable issues={result.validation_result.issues} />}
              <Group>
                <Button size="xs" onClick={() => onShowTile({ project, interfaceId, tab_id: result.created_ids.tab_id, tile_id: result.created_ids.tile_id })}>
                  Show the imported tile
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => void submit()} disabled={!check.template} loading={importer.isPending && !conflict}>
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
