/**
 * Secrets never reach a log line: every line the deploy prints passes through
 * here, which blanks the values of the credential variables it may hold (the
 * AWS keys and session token, the CDN tokens) wherever they appear, and the
 * user and password part of any URL.
 */
export const SECRET_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'CF_API_TOKEN',
  'FASTLY_API_TOKEN',
] as const;

export function redactor(env: NodeJS.ProcessEnv): (line: string) => string {
  const secrets = SECRET_VARIABLES.map((name) => env[name]?.trim())
    .filter((value): value is string => value !== undefined && value.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (line) => {
    let clean = line.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
    for (const secret of secrets) clean = clean.split(secret).join('***');
    return clean;
  };
}
