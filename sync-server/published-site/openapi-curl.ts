import type { Json, OperationModel, ParameterModel } from './openapi-model';

/**
 * The curl command of an operation, as API references show it: the first server's URL and the
 * path (path parameters stay `{name}` placeholders for the reader to fill), required query
 * parameters with example values, the credentials the security scheme asks for as placeholders,
 * and the request body's example. Every value is single-quoted for POSIX shells.
 */

/** `value` single-quoted for a POSIX shell (a `'` closes, escapes and reopens). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const scalar = (v: Json | undefined, fallback: string) =>
  v === undefined || v === null ? fallback : typeof v === 'string' ? v : JSON.stringify(v);

/** A value to show for a parameter: its example, its schema's example, default or first enum value. */
function sampleValue(p: ParameterModel): Json | undefined {
  const s = p.schema;
  return p.example ?? s?.example ?? s?.default ?? (Array.isArray(s?.enum) ? s.enum[0] : undefined);
}

export function curlSample(op: OperationModel, body?: { type: string; example: Json | undefined }): string {
  const server = op.servers[0]?.url ?? '';
  const query = new URLSearchParams();
  for (const p of op.parameters)
    if (p.in === 'query' && p.required) query.append(p.name, scalar(sampleValue(p), p.name));
  for (const s of op.security) if (s.in === 'query') query.append(s.name, s.value);
  const qs = query.toString();
  const url = `${server.replace(/\/$/, '')}${op.path}${qs ? `?${qs}` : ''}`;
  const lines = [`curl -L \\`, `  --request ${op.method.toUpperCase()} \\`, `  --url ${shellQuote(url)}`];
  const header = (name: string, value: string) => lines.push(`  --header ${shellQuote(`${name}: ${value}`)}`);
  for (const s of op.security) if (s.in === 'header') header(s.name, s.value);
  for (const p of op.parameters) if (p.in === 'header' && p.required) header(p.name, scalar(sampleValue(p), 'text'));
  const cookies = [
    ...op.security.filter((s) => s.in === 'cookie').map((s) => `${s.name}=${s.value}`),
    ...op.parameters
      .filter((p) => p.in === 'cookie' && p.required)
      .map((p) => `${p.name}=${scalar(sampleValue(p), 'value')}`),
  ];
  if (cookies.length) lines.push(`  --cookie ${shellQuote(cookies.join('; '))}`);
  if (body) {
    header('Content-Type', body.type);
    if (body.example !== undefined) {
      const data =
        typeof body.example === 'string'
          ? body.example
          : /json/.test(body.type) || !/form/.test(body.type)
            ? JSON.stringify(body.example, null, 2)
            : formEncoded(body.example);
      lines.push(`  --data ${shellQuote(data)}`);
    }
  }
  // Each line but the last continues the command.
  return lines.map((l, i) => (i < lines.length - 1 && !l.endsWith('\\') ? `${l} \\` : l)).join('\n');
}

function formEncoded(example: Json): string {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return JSON.stringify(example);
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(example)) form.append(k, scalar(v, ''));
  return form.toString();
}
