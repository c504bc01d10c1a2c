import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

/**
 * A schema that lists exactly the JSON Schema an upstream listed and lets every value through: the
 * upstream checks its own arguments (and its own output), with its own messages, as if the host
 * had called it directly.
 */
export function passthroughSchema(json: Readonly<Record<string, unknown>>): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'parley-gateway',
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => json as Record<string, unknown>,
        output: () => json as Record<string, unknown>,
      },
    },
  } as StandardSchemaWithJSON;
}

/** A prompt's arguments as an object schema of strings, so Parley lists them as the upstream did. */
export function promptArgumentsSchema(
  args: readonly {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly required?: boolean;
  }[],
): StandardSchemaWithJSON {
  const properties = Object.fromEntries(
    args.map((arg) => [
      arg.name,
      {
        type: 'string',
        ...(arg.title !== undefined && { title: arg.title }),
        ...(arg.description !== undefined && { description: arg.description }),
      },
    ]),
  );
  const required = args.filter((arg) => arg.required === true).map((arg) => arg.name);
  return passthroughSchema({ type: 'object', properties, ...(required.length > 0 && { required }) });
}
