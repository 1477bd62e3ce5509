import {
  AssistantIdParams,
  AssistantInfoResponse,
  AssistantListQuery,
  AssistantListResponse,
  AssistantPricingSchema,
  CreateAssistantInput,
  PhotoUploadResponse,
  UpdateAssistantConfigInput,
} from '../assistants.ts';
import { InfoString } from '../common.ts';
import { inScope, operation, SIGNED_IN } from '../operation.ts';

// Assistants (semantics §1 roles): reading needs assistant:read, creating and changing (the photo
// too) assistant:write, deleting assistant:delete. Voices are in voices.ts.

export const createAssistant = operation({
  method: 'POST',
  path: '/v0/assistant',
  operationId: 'createAssistant',
  summary: 'Create (hire) an assistant; deducts its cost in credits from the key’s account',
  description: 'A personal key charges the user, an organization key the organization (assistant:write). Short of credits → 402 and nothing is written.',
  tag: 'assistants',
  access: inScope('assistant:write'),
  body: CreateAssistantInput,
  response: AssistantInfoResponse,
  errors: [402, 403, 422],
  idempotent: true,
});

export const listAssistants = operation({
  method: 'GET',
  path: '/v0/assistant',
  operationId: 'listAssistants',
  summary: 'Assistants of the key’s workspace, newest first',
  description:
    'Filters `phone` (exact), `email` (any case) and `agent_id` narrow the list. In an organization (organization key, or X-Roster-Organization) the list is the organization’s whole list, whoever hired each assistant; `list_all_org=True` asks for exactly that, and is refused (400) where the caller acts in no organization.',
  tag: 'assistants',
  extension: true,
  access: inScope('assistant:read'),
  query: AssistantListQuery,
  response: AssistantListResponse,
  errors: [400, 403],
});

export const getAssistantPricing = operation({
  method: 'GET',
  path: '/v0/assistant/pricing',
  operationId: 'getAssistantPricing',
  summary: 'What creating an assistant costs, in credits',
  tag: 'assistants',
  extension: true,
  access: SIGNED_IN,
  response: AssistantPricingSchema,
});

export const getAssistant = operation({
  method: 'GET',
  path: '/v0/assistant/{assistant_id}',
  operationId: 'getAssistant',
  summary: 'One assistant',
  tag: 'assistants',
  extension: true,
  access: inScope('assistant:read'),
  params: AssistantIdParams,
  response: AssistantInfoResponse,
  errors: [403, 404, 422],
});

export const deleteAssistant = operation({
  method: 'DELETE',
  path: '/v0/assistant/{assistant_id}',
  operationId: 'deleteAssistant',
  summary: 'Delete an assistant (no refund)',
  tag: 'assistants',
  extension: true,
  access: inScope('assistant:delete'),
  params: AssistantIdParams,
  response: InfoString,
  errors: [403, 404, 422],
});

export const updateAssistantConfig = operation({
  method: 'PATCH',
  path: '/v0/assistant/{assistant_id}/config',
  operationId: 'updateAssistantConfig',
  summary: 'Update an assistant’s configuration: omitted fields stay, null clears',
  description:
    'profile_photo is ignored (upload a photo with assistant_id instead). The deprecated contact fields (user_phone, phone, phone_country, email, user_whatsapp_number) are accepted and ignored; the response then carries `Deprecation: true`.',
  tag: 'assistants',
  access: inScope('assistant:write'),
  params: AssistantIdParams,
  body: UpdateAssistantConfigInput,
  response: AssistantInfoResponse,
  errors: [403, 404, 422],
});

export const uploadAssistantPhoto = operation({
  method: 'POST',
  path: '/v0/assistant/photo/upload',
  operationId: 'uploadAssistantPhoto',
  summary: 'Upload a profile photo (JPEG, PNG, WebP or GIF, at most 5 MiB); with assistant_id it becomes that assistant’s photo',
  description:
    'The image is decoded and stored re-encoded: EXIF orientation applied, metadata and anything after the image removed, at most 2048 px on a side, GIF stored as PNG (content_type and size describe the stored file). Animated, undecodable or over-40-megapixel images → 422.',
  tag: 'assistants',
  access: inScope('assistant:write'),
  multipart: {
    file: { type: 'binary', required: true, description: 'The image; its type is read from its bytes.' },
    assistant_id: { type: 'string', description: 'Integer id of an assistant whose profile_photo to set.' },
  },
  response: PhotoUploadResponse,
  status: 201,
  errors: [403, 404, 413, 415, 422],
  idempotent: true,
});
