const PATHS: Record<string, string> = {
  user: 'M8 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-5.5 6.5c0-3 2.5-5 5.5-5s5.5 2 5.5 5z',
  envelope: 'M1.5 3.5h13v9h-13zm0 0L8 9l6.5-5.5',
  phone: 'M4 1.5h3l1 3.5-2 1.2a8 8 0 0 0 3.8 3.8l1.2-2 3.5 1v3A1.5 1.5 0 0 1 13 14.5 11.5 11.5 0 0 1 1.5 3 1.5 1.5 0 0 1 3 1.5z',
  hospital: 'M2.5 14.5v-12h11v12zm4-9.5h3m-1.5-1.5v3M6 14.5v-3h4v3',
  'id-card': 'M1.5 3.5h13v9h-13zM4 10.5c.3-1.3 1-2 2-2s1.7.7 2 2M6 7.5a1.2 1.2 0 1 0 0-.1M10 6.5h2.5M10 9h2.5',
};

/** A small decorative icon before a label, for the icon names a field may give; unknown names show none. */
export function FieldIcon({ name }: { name?: string }) {
  const d = name ? PATHS[name] : undefined;
  if (!d) return null;
  return (
    <svg className="field-icon" aria-hidden="true" viewBox="0 0 16 16" width="16" height="16">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
    </svg>
  );
}
