import { Button, Code, CopyButton, Group, Modal, ScrollArea, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ExportTemplateResponse, Tile } from '../../../../shared/tiles.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { useExportTemplate } from '../api.ts';
import { templateFileName } from '../template-file.ts';

function download(fileName: string, json: string) {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Export from a tile's menu: options, a preview of the JSON, then download or copy. */
export function ExportModal({ tile, onClose }: { tile: Tile | null; onClose: () => void }) {
  const [templateName, setTemplateName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [checkpoint, setCheckpoint] = useState(false);
  const [includeMetadata, setIncludeMetadata] = useState(true);
  const [result, setResult] = useState<ExportTemplateResponse | null>(null);
  const exporter = useExportTemplate();

  // Another tile starts with fresh options (state adjusted while rendering; the mutation, outside React
  // state, is reset in an effect).
  const [shownTile, setShownTile] = useState<Tile | null>(null);
  if (tile !== shownTile) {
    setShownTile(tile);
    if (tile) {
      setTemplateName(tile.name);
      setDescription('');
      setTags([]);
      setCheckpoint(false);
      setIncludeMetadata(true);
      setResult(null);
    }
  }
  useEffect(() => {
    if (tile) exporter.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tile]);

  // Any change of the options makes the preview stale.
  const changed =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setResult(null);
    };

  const preview = async () => {
    if (!tile) return;
    const r = await exporter.mutateAsync({
      tile_id: tile.id,
      template_name: templateName.trim() || null,
      description: description.trim() || null,
      tags,
      checkpoint,
      include_metadata: includeMetadata,
    });
    setResult(r);
  };

  const json = result ? JSON.stringify(result, null, 2) : '';
  const fileName = templateFileName(templateName || tile?.name || 'tile');
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={tile !== null} onClose={onClose} title={tile ? `Export ${tile.name} as a template` : ''} size="lg">
      <Stack>
        <TextInput label="Template name" value={templateName} onChange={(e) => changed(setTemplateName)(e.currentTarget.value)} maxLength={255} />
        <Textarea label="Description" value={description} onChange={(e) => changed(setDescription)(e.currentTarget.value)} maxLength={2000} autosize minRows={2} />
        <TagsInput label="Tags" value={tags} onChange={changed(setTags)} maxTags={50} placeholder="Type a tag and press Enter" />
        <Switch
          label="Export the saved checkpoint"
          description={tile?.has_checkpoint ? 'The copy saved with “Save checkpoint” instead of the current tile.' : 'This tile has no checkpoint yet.'}
          checked={checkpoint}
          disabled={!tile?.has_checkpoint}
          onChange={(e) => changed(setCheckpoint)(e.currentTarget.checked)}
        />
        <Switch
          label="Include metadata"
          description="Who exported it, from which tab, and the creator. Off: only the export time."
          checked={includeMetadata}
          onChange={(e) => changed(setIncludeMetadata)(e.currentTarget.checked)}
        />
        {exporter.isError && <ErrorAlert error={exporter.error} title="Export failed" />}
        {result ? (
          <Stack gap="xs">
            <Text size="sm" fw={500} id="export-preview-label">
              Preview
            </Text>
            <ScrollArea.Autosize mah={260} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Exported JSON' }}>
              <Code block aria-labelledby="export-preview-label">
                {json}
              </Code>
            </ScrollArea.Autosize>
            <Group justify="flex-end">
              <CopyButton value={json}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}>
                    {copied ? 'Copied' : 'Copy JSON'}
                  </Button>
                )}
              </CopyButton>
              <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={() => download(fileName, json)}>
                Download {fileName}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void preview().catch(() => undefined)} loading={exporter.isPending}>
              Preview export
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
