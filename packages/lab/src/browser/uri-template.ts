// RFC 6570 URI templates up to level 3 (operators, several variables per expression), enough to
// read a resource template from the page. Explode (`*`) and prefix (`:n`) modifiers are accepted
// and ignored.

const EXPRESSION = /\{([+#./;?&]?)([^{}]+)\}/g;

interface Operator {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly reserved: boolean;
  /** Written after the name when the value is empty (`;x` vs `?x=`). */
  readonly emptyNamed: string;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', separator: ',', named: false, reserved: false, emptyNamed: '' },
  '+': { first: '', separator: ',', named: false, reserved: true, emptyNamed: '' },
  '#': { first: '#', separator: ',', named: false, reserved: true, emptyNamed: '' },
  '.': { first: '.', separator: '.', named: false, reserved: false, emptyNamed: '' },
  '/': { first: '/', separator: '/', named: false, reserved: false, emptyNamed: '' },
  ';': { first: ';', separator: ';', named: true, reserved: false, emptyNamed: '' },
  '?': { first: '?', separator: '&', named: true, reserved: false, emptyNamed: '=' },
  '&': { first: '&', separator: '&', named: true, reserved: false, emptyNamed: '=' },
};

function names(list: string): string[] {
  return list.split(',').map((name) => name.replace(/(\*|:\d+)$/, '').trim());
}

function encode(value: string, reserved: boolean): string {
  if (reserved) return encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The variable names of a template, in order, without repeats. */
export function templateVariables(template: string): string[] {
  const found: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const name of names(match[2]!)) if (name !== '' && !found.includes(name)) found.push(name);
  }
  return found;
}

/** Expands a template; variables that are missing or `undefined` are left out, as RFC 6570 says. */
export function expandTemplate(
  template: string,
  values: Readonly<Record<string, string | undefined>>,
): string {
  return template.replace(EXPRESSION, (_whole, operator: string, list: string) => {
    const op = OPERATORS[operator]!;
    const parts = names(list)
      .filter((name) => values[name] !== undefined)
      .map((name) => {
        const value = encode(values[name]!, op.reserved);
        if (!op.named) return value;
        return value === '' ? `${name}${op.emptyNamed}` : `${name}=${value}`;
      });
    return parts.length === 0 ? '' : `${op.first}${parts.join(op.separator)}`;
  });
}
