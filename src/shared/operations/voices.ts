import { DeleteVoiceQuery, VoiceIdParams, VoiceInfoResponse, VoiceListResponse } from '../assistants.ts';
import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';

// Voices assistants speak with: seeded presets and the workspace's clones (under /v0/assistant, as
// the spec has them; same permissions as assistants).

export const listVoices = operation({
  method: 'GET',
  path: '/v0/assistant/voice',
  operationId: 'listVoices',
  summary: 'Voices the key’s workspace can use: the seeded presets, then its clones (newest first)',
  tag: 'assistants',
  extension: true,
  access: inScope('assistant:read'),
  response: VoiceListResponse,
  errors: [403],
});

export const cloneVoice = operation({
  method: 'POST',
  path: '/v0/assistant/voice/clone',
  operationId: 'cloneVoice',
  summary: 'Clone a voice from an audio sample (WAV, MP3, OGG, WebM, M4A or FLAC, at most 25 MiB)',
  tag: 'assistants',
  access: inScope('assistant:write'),
  multipart: {
    name: { type: 'string', required: true, description: '1–100 characters' },
    language: { type: 'string' },
    description: { type: 'string' },
    gender: { type: 'string' },
    provider: { type: 'string', description: 'cartesia (default) or elevenlabs' },
    file: { type: 'binary', required: true, description: 'The audio sample; its type is read from its bytes.' },
  },
  response: VoiceInfoResponse,
  status: 201,
  errors: [403, 413, 415, 422],
  idempotent: true,
});

export const deleteVoice = operation({
  method: 'DELETE',
  path: '/v0/assistant/voice/{voice_id}',
  operationId: 'deleteVoice',
  summary: 'Delete a cloned voice and its stored sample',
  description: 'Presets cannot be deleted (403). A voice in use answers 409 with `detail` naming the assistants and `assistants: [{agent_id, name}]`.',
  tag: 'assistants',
  access: inScope('assistant:delete'),
  params: VoiceIdParams,
  query: DeleteVoiceQuery,
  response: InfoString,
  errors: [403, 404, 409, 422],
});
