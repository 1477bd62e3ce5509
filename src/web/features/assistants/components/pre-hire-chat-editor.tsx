import { ActionIcon, Button, Group, Paper, SegmentedControl, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, type Control, type FieldErrors } from 'react-hook-form';
import { PRE_HIRE_CHAT_MAX_ITEMS } from '../../../../shared/assistant-rules.ts';
import { ErrorText } from '../../../components/error-text.tsx';

export interface ChatValues {
  pre_hire_chat: { role: 'user' | 'assistant'; msg: string }[];
}

/** The pre-hire conversation as an editable list of messages, each from you or from the assistant. */
export function PreHireChatEditor<T extends ChatValues, P>({ control, errors }: { control: Control<T, unknown, P>; errors: FieldErrors<T> }) {
  const ctl = control as unknown as Control<ChatValues>;
  const errs = errors as unknown as FieldErrors<ChatValues>;
  const { fields, append, remove, move } = useFieldArray({ control: ctl, name: 'pre_hire_chat' });
  // Turns alternate: a new message answers the last one.
  const next = fields.at(-1)?.role === 'user' ? 'assistant' : 'user';
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        The conversation you had before hiring, kept with the assistant&apos;s record. Optional.
      </Text>
      {fields.length === 0 && <Text size="sm">No messages.</Text>}
      {fields.map((field, index) => {
        const itemError = errs.pre_hire_chat?.[index];
        return (
          <Paper key={field.id} withBorder p="sm" radius="md">
            <Stack gap="xs">
              <Group justify="space-between" gap="xs">
                <Controller
                  control={ctl}
                  name={`pre_hire_chat.${index}.role`}
                  render={({ field: role }) => (
                    <SegmentedControl
                      size="xs"
                      aria-label={`Message ${index + 1} is from`}
                      value={role.value}
                      onChange={role.onChange}
                      data={[
                        { value: 'user', label: 'You' },
                        { value: 'assistant', label: 'Assistant' },
                      ]}
                    />
                  )}
                />
                <Group gap={4}>
                  <Tooltip label="Move up" withArrow>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Move message ${index + 1} up`} disabled={index === 0} onClick={() => move(index, index - 1)}>
                      <IconArrowUp size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Move down" withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={`Move message ${index + 1} down`}
                      disabled={index === fields.length - 1}
                      onClick={() => move(index, index + 1)}
                    >
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Remove" withArrow>
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove message ${index + 1}`} onClick={() => remove(index)}>
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
              <Controller
                control={ctl}
                name={`pre_hire_chat.${index}.msg`}
                render={({ field: msg }) => (
                  <Textarea
                    aria-label={`Message ${index + 1}`}
                    autosize
                    minRows={1}
                    maxRows={6}
                    value={msg.value}
                    onChange={msg.onChange}
                    onBlur={msg.onBlur}
                    error={itemError?.msg?.message ?? itemError?.role?.message}
                  />
                )}
              />
            </Stack>
          </Paper>
        );
      })}
      <ErrorText>{errs.pre_hire_chat?.message}</ErrorText>
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => append({ role: next, msg: '' })}
          disabled={fields.length >= PRE_HIRE_CHAT_MAX_ITEMS}
        >
          Add a message
        </Button>
      </Group>
    </Stack>
  );
}
