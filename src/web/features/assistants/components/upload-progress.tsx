import { Button, Group, Progress, Stack, Text } from '@mantine/core';

/** The real byte progress of an upload (XMLHttpRequest upload events), with a way to stop it. */
export function UploadProgress({ label, fraction, onCancel }: { label: string; fraction: number; onCancel?: () => void }) {
  const percent = Math.round(fraction * 100);
  return (
    <Stack gap={4} w="100%">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{percent >= 100 ? `${label}: processing…` : `${label}: ${percent}%`}</Text>
        {onCancel && percent < 100 && (
          <Button size="compact-xs" variant="default" onClick={onCancel}>
            Cancel upload
          </Button>
        )}
      </Group>
      <Progress value={percent} aria-label={label} animated={percent >= 100} transitionDuration={150} />
    </Stack>
  );
}
