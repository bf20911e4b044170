import type { FieldDef } from '../config/field.struct.ts';
import { intlLocale, m } from '../../i18n/messages.ts';

/** The largest file a file field accepts when its definition sets no `validation.maxFileSize`: 5 MB. */
const DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024;

/** The file types a file field accepts when its definition sets no `validation.accept`. */
const DEFAULT_ACCEPT: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg'];

/** The file types a file field accepts. */
export function acceptedTypes(field: Pick<FieldDef, 'validation'>): readonly string[] {
  return field.validation?.accept?.length ? field.validation.accept : DEFAULT_ACCEPT;
}

/** The largest file a file field accepts, in bytes. */
export function maxFileSize(field: Pick<FieldDef, 'validation'>): number {
  return field.validation?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
}

/** A size in bytes as people read it: '5 MB', '300 KB'. */
export function formatBytes(bytes: number): string {
  const size = (n: number) => (+n.toFixed(1)).toLocaleString(intlLocale('en-US'), { useGrouping: false });
  if (bytes >= 1024 * 1024) return m.bytes_mb({ size: size(bytes / (1024 * 1024)) });
  if (bytes >= 1024) return m.bytes_kb({ size: size(bytes / 1024) });
  return m.bytes_bytes({ size: size(bytes) });
}

/** File types as people read them: 'PDF, PNG, JPEG'. */
export function describeTypes(types: readonly string[]): string {
  return types.map((type) => type.split('/')[1]?.toUpperCase() ?? type).join(', ');
}
