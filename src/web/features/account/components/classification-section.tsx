import { Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Classification } from '../../../../shared/account.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { accountQueries } from '../../../data/account.ts';
import { useCreateWithBusinessInfo } from '../api.ts';
import { BusinessForm, type BusinessFormValues } from './business-form.tsx';

/** The saved classification as the form's inputs hold it: absent optional fields are blank inputs. */
function formValues(saved: Classification): Partial<BusinessFormValues> {
  const b = saved.business_info;
  return {
    account_type: saved.account_type ?? 'individual',
    business_info: b && {
      business_name: b.business_name,
      business_type: b.business_type,
      tax_id: b.tax_id ?? '',
      tax_exempt: b.tax_exempt,
      business_address: {
        address_line1: b.business_address.address_line1,
        address_line2: b.business_address.address_line2 ?? '',
        city: b.business_address.city,
        state: b.business_address.state ?? '',
        country: b.business_address.country,
        postal_code: b.business_address.postal_code ?? '',
      },
    },
  };
}

/** The account's classification, read back as saved and changed in place. */
export function ClassificationSection({ personalKey }: { personalKey: boolean }) {
  const saved = useQuery({ ...accountQueries.classification(), enabled: personalKey });
  const classify = useCreateWithBusinessInfo();
  if (!personalKey) {
    return <Text c="dimmed">The classification belongs to your account. Switch to your personal workspace to see or change it.</Text>;
  }
  if (saved.isPending) return <Skeleton height={90} />;
  if (saved.isError) return <ErrorAlert error={saved.error} onRetry={() => void saved.refetch()} />;
  return (
    <BusinessForm
      withIdentity={false}
      defaultValues={formValues(saved.data)}
      submitLabel="Save classification"
      onSubmit={(values) => classify.mutateAsync({ ...values, email: null })}
    />
  );
}
