/**
 * Arguments to start a tool call from, for a person writing one (the rule playground, Play):
 * each required parameter (every parameter when none is required) with an empty value of its
 * type. Reads untrusted schemas tolerantly: anything that is not a schema gives `{}`.
 */
export function emptyArguments(parameters: unknown): Record<string, unknown> {
  const schema = (typeof parameters === 'object' && parameters !== null ? parameters : {}) as {
    properties?: unknown;
    required?: unknown;
  };
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as Record<string, { type?: unknown } | undefined>)
      : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((n): n is string => typeof n === 'string')
    : [];
  const names = required.length > 0 ? required : Object.keys(properties);
  return Object.fromEntries(names.map((name) => [name, emptyValue(properties[name]?.type)]));
}

function emptyValue(type: unknown): unknown {
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return '';
}
