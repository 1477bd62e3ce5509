import '@mantine/dropzone/styles.css';
import { Group, Text } from '@mantine/core';
import { Dropzone, type DropzoneProps } from '@mantine/dropzone';
import type { ReactNode } from 'react';

/**
 * The area one file is dropped on or chosen through (click, or Enter/Space when focused). `onFile` gets
 * the file. A file the picker's `accept` refuses goes to `onReject`; without it, to `onFile` too, for
 * callers that check the file's bytes themselves (the type a browser guesses from a name is no proof).
 */
export function FileDropZone({
  icon,
  title,
  hint,
  accept,
  label,
  inputLabel,
  onFile,
  onReject = onFile,
}: {
  icon: ReactNode;
  title: string;
  hint: ReactNode;
  /** MIME types, or MIME types with their file name endings: `{ 'application/json': ['.json'] }`. */
  accept: DropzoneProps['accept'];
  /** The zone's accessible name: what to drop, and that pressing it opens the picker. */
  label: string;
  /** The hidden file input's accessible name. */
  inputLabel: string;
  onFile: (file: File | undefined) => void;
  onReject?: (file: File | undefined) => void;
}) {
  return (
    <Dropzone
      onDrop={(files) => onFile(files[0])}
      onReject={(rejections) => onReject(rejections[0]?.file)}
      accept={accept}
      maxFiles={1}
      multiple={false}
      aria-label={label}
      inputProps={{ 'aria-label': inputLabel }}
    >
      <Group justify="center" gap="sm" mih={70} style={{ pointerEvents: 'none' }}>
        {icon}
        <div>
          <Text fw={500}>{title}</Text>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
      </Group>
    </Dropzone>
  );
}
