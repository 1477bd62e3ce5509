import { Alert, Button, Group, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { CreateWithBusinessInfoInput } from '../../../../shared/account.ts';
import { applyServerErrors, useZodForm } from '../../../lib/form.ts';
import { CountrySelect } from '../../../components/country-select.tsx';
import { useUnsavedChanges } from '../../../components/leave-guard.tsx';

type Output = z.output<typeof CreateWithBusinessInfoInput>;

/** What the inputs hold (the schema's input type is loose where null means "not given"). */
export interface BusinessFormValues {
  account_type: 'individual' | 'business';
  email: string | null;
  name: string;
  last_name: string;
  business_info: {
    business_name: string;
    business_type: string;
    tax_id: string;
    tax_exempt: boolean;
    business_address: { address_line1: string; address_line2: string; city: string; state: string; country: string; postal_code: string };
  } | null;
}

/** Blank optional inputs mean "not given"; blank required ones stay, so their message says "Must not be empty." */
function clean(values: BusinessFormValues): BusinessFormValues {
  const blank = (v: string | null | undefined) => (v === '' ? undefined : v);
  const b = values.business_info;
  return {
    ...values,
    email: blank(values.email) as string | null,
    name: blank(values.name) as string,
    last_name: blank(values.last_name) as string,
    business_info: b && {
      ...b,
      tax_id: blank(b.tax_id) as string,
      business_address: {
        ...b.business_address,
        address_line2: blank(b.business_address.address_line2) as string,
        state: blank(b.business_address.state) as string,
        postal_code: blank(b.business_address.postal_code) as string,
      },
    },
  };
}

/** Blank optional inputs are "not given" before the schema sees them. */
const FormSchema = z.preprocess((values) => clean(values as BusinessFormValues), CreateWithBusinessInfoInput);

const emptyBusiness: NonNullable<BusinessFormValues['business_info']> = {
  business_name: '',
  business_type: '',
  tax_id: '',
  tax_exempt: false,
  business_address: { address_line1: '', address_line2: '', city: '', state: '', country: '', postal_code: '' },
};

/**
 * Individual or business classification; the business fields appear only for a business. With
 * `withIdentity` it also asks for the new user's e-mail and name (creating a colleague).
 */
export function BusinessForm({
  withIdentity,
  defaultValues,
  submitLabel,
  onSubmit,
}: {
  withIdentity: boolean;
  /** What the form starts from (the saved classification); an individual with no e-mail or names otherwise. */
  defaultValues?: Partial<BusinessFormValues>;
  submitLabel: string;
  onSubmit: (values: Output) => Promise<unknown>;
}) {
  const form = useZodForm<typeof FormSchema, BusinessFormValues>(FormSchema, {
    defaultValues: { account_type: 'individual', email: withIdentity ? '' : null, name: '', last_name: '', business_info: null, ...defaultValues },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const accountType = form.watch('account_type');
  const biz = (errors.business_info ?? {}) as Record<string, { message?: string } | Record<string, { message?: string }>>;
  const addr = (biz.business_address ?? {}) as Record<string, { message?: string }>;
  const msg = (e: unknown) => (e as { message?: string } | undefined)?.message;

  const submit = form.handleSubmit(async (values) => {
    // Without an e-mail the API would classify the caller's own account instead of creating one.
    if (withIdentity && !values.email) {
      form.setError('email', { type: 'required', message: "Enter the new user's e-mail address." });
      return;
    }
    try {
      await onSubmit(values);
      // Created: an empty form for the next one. Saved in place: what was saved is the new starting point.
      if (withIdentity) form.reset();
      else form.reset(form.getValues());
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {withIdentity && (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="E-mail" required type="email" autoComplete="off" error={msg(errors.email)} {...form.register('email')} />
            <TextInput label="First name" error={msg(errors.name)} {...form.register('name')} />
            <TextInput label="Last name" error={msg(errors.last_name)} {...form.register('last_name')} />
          </SimpleGrid>
        )}
        <Controller
          control={form.control}
          name="account_type"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="account-type-label">
                Account type
              </Text>
              <SegmentedControl
                aria-labelledby="account-type-label"
                value={field.value}
                onChange={(v) => {
                  field.onChange(v);
                  if (v === 'business' && !form.getValues('business_info')) form.setValue('business_info', emptyBusiness);
                  if (v === 'individual') form.setValue('business_info', null);
                }}
                data={[
                  { value: 'individual', label: 'Individual' },
                  { value: 'business', label: 'Business' },
                ]}
                w="fit-content"
              />
              {msg(errors.account_type) && (
                <Text c="var(--mantine-color-error)" size="sm">
                  {msg(errors.account_type)}
                </Text>
              )}
            </Stack>
          )}
        />
        {accountType === 'business' && (
          <Stack gap="sm">
            {typeof msg(errors.business_info) === 'string' && <Alert color="red">{msg(errors.business_info)}</Alert>}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Business name" required error={msg(biz.business_name)} {...form.register('business_info.business_name')} />
              <TextInput
                label="Business type"
                description="e.g. LLC, GmbH, sole proprietorship"
                required
                error={msg(biz.business_type)}
                {...form.register('business_info.business_type')}
              />
              <TextInput label="Tax ID" error={msg(biz.tax_id)} {...form.register('business_info.tax_id')} />
              <Controller
                control={form.control}
                name="business_info.tax_exempt"
                render={({ field }) => <Switch mt="lg" label="Tax exempt" checked={!!field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />}
              />
              <TextInput label="Address line 1" required error={msg(addr.address_line1)} {...form.register('business_info.business_address.address_line1')} />
              <TextInput label="Address line 2" error={msg(addr.address_line2)} {...form.register('business_info.business_address.address_line2')} />
              <TextInput label="City" required error={msg(addr.city)} {...form.register('business_info.business_address.city')} />
              <TextInput label="State or region" error={msg(addr.state)} {...form.register('business_info.business_address.state')} />
              <Controller
                control={form.control}
                name="business_info.business_address.country"
                render={({ field }) => (
                  <CountrySelect
                    label="Country"
                    required
                    value={field.value || null}
                    onChange={(v) => field.onChange(v ?? '')}
                    onBlur={field.onBlur}
                    error={msg(addr.country)}
                  />
                )}
              />
              <TextInput label="Postal code" error={msg(addr.postal_code)} {...form.register('business_info.business_address.postal_code')} />
            </SimpleGrid>
          </Stack>
        )}
        {errors.root?.server && (
          <Alert color="red" role="alert">
            {errors.root.server.message}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
