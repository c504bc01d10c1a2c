type Jose = typeof import('jose');
let jose: Promise<Jose> | undefined;

/** The optional peer dependency `jose`, loaded when first needed (JWT access tokens, DPoP proofs). */
export function importJose(what: string): Promise<Jose> {
  jose ??= import('jose').catch((error: unknown) => {
    jose = undefined;
    throw new Error(`${what} needs the package "jose": npm install jose`, { cause: error });
  });
  return jose;
}
