import type { Generated } from 'kysely';

export interface CustomEndpointTable {
  id: Generated<number>;
  user_id: string | null; // the creator; null once they deleted their account (organization rows outlive them)
  organization_id: number | null;
  scope_key: string;
  name: string;
  url: string;
  model_arg: string;
  key_name: string | null;
  created_at: string;
}

export interface CustomEndpointTables {
  custom_endpoints: CustomEndpointTable;
}
