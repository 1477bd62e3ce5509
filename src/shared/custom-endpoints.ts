import { z } from 'zod';
import { httpUrl, name, opt, text, Timestamp } from './common.ts';

/** An OpenAI-compatible model endpoint a user registers, e.g. `my-model@custom`. */
export const CustomEndpointSchema = z.object({
  name: z.string(),
  url: z.string(),
  model_arg: z.string(),
  key_name: z.string().nullable(),
  created_at: Timestamp,
});
export type CustomEndpoint = z.infer<typeof CustomEndpointSchema>;

export const CustomEndpointInput = z.object({
  name: name(255).regex(/^[\w.\-@/:]+$/, 'Use letters, digits and . _ - @ / : only, no spaces (e.g. my-model@custom).'),
  url: httpUrl(),
  model_arg: name(255),
  key_name: opt(text(255)),
});
export type CustomEndpointInputType = z.input<typeof CustomEndpointInput>;

export const CustomEndpointCreated = z.object({ info: z.string(), endpoint: CustomEndpointSchema });
export const CustomEndpointList = z.array(CustomEndpointSchema);

/** 20. DELETE /v0/custom_endpoint?name= */
export const DeleteCustomEndpointQuery = z.object({ name: name(255) });
