import { ActionIcon, Alert, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';

/** A secret the server shows once (API keys, invite links): visible, copyable, and said to be shown once. */
export function SecretReveal({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconKey aria-hidden />} title={label}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label={label}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                <ActionIcon variant="light" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
                  {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">{note ?? 'Copy it now: it is shown only once and cannot be retrieved later.'}</Text>
      </Stack>
    </Alert>
  );
}
