import type { ScaffoldOptions } from './options.js';

/** The new project's README.md: how to run it, and what to change first. */
export function readme(name: string, options: ScaffoldOptions): string {
  const http = options.transport === 'http';
  const serves = http
    ? `one HTTP endpoint, \`http://127.0.0.1:3000/mcp\`, for both MCP protocol eras${
        options.oauth ? ', as an OAuth 2.1 protected resource' : ''
      }`
    : 'stdio (a host starts it as a child process), on both MCP protocol eras';
  return `# ${name}

An MCP server made with [Parley](https://www.npmjs.com/package/@parley/server). Its one tool,
\`book_table\`, stops to ask the person how many guests and which day, then books the table exactly
once with \`ctx.once\`.

It serves ${serves}: 2026-07-28 clients statelessly, 2025 clients over a session.

## Commands

| command | what it does |
| --- | --- |
| \`npm test\` | type-checks, then runs the tests: the tool on both eras in-process (\`test/server.test.ts\`) and the real server ${
    http ? 'over HTTP (`test/http.test.ts`)' : 'over stdio (`test/stdio.test.ts`)'
  } |
| \`npm run dev\` | ${http ? 'runs the server, restarting it when a file changes' : 'rebuilds `dist/` when a file changes (a host starts `node dist/main.js` anew for each session)'} |
| \`npm start\` | builds, then runs the server${http ? '' : ' on stdin and stdout'} |
| \`npm run inspect\` | ${
    http ? 'runs the server on a free port and opens' : 'builds, then opens'
  } the Parley lab on it: a browser page where you call the tool and answer its questions |
| \`npm run build\` | compiles \`src/\` to \`dist/\` |

${http ? httpSection(options) : stdioSection()}
## What to change first

1. **\`src/server.ts\`**: the server's name and version in \`createServer\`, then the tool: its name,
   description and arguments (\`input: z.object({...})\` after \`npm install zod\`), the question it
   asks (\`ask.text\`, \`ask.choice\`, \`ask.form\`, ...) and what it does with the answer. Keep
   everything before a question deterministic: on the 2026-07-28 era the handler runs again from the
   top for every round.
2. **\`src/bookings.ts\`** is a stand-in for your own system. Whatever changes the world (a write, a
   payment, an email) goes through \`ctx.once(name, (key) => ...)\`: hand \`key\` to your system as
   its idempotency key.
3. **\`test/server.test.ts\`**: the answers a person gives and what you expect back, on both eras.
${
  options.oauth
    ? `4. **\`src/http.ts\`**: the scopes your tools need (\`requiredScopes\`), and \`OAUTH_ISSUER\` for your
   authorization server.
`
    : ''
}
## Learn more

- [@parley/server](https://www.npmjs.com/package/@parley/server): questions, the replay rule,
  \`ctx.once\`, results, serving${options.oauth ? ', OAuth' : ''}.
- [@parley/client](https://www.npmjs.com/package/@parley/client): \`testClient\` and \`connect\`.
- [@parley/cli](https://www.npmjs.com/package/@parley/cli): \`npx parley call ...\` answers the
  questions in your terminal.
`;
}

function httpSection(options: ScaffoldOptions): string {
  const env = options.oauth ? 'OAUTH_ISSUER=https://auth.example.com ' : '';
  return `## Run it

\`\`\`sh
${env}npm start            # MCP endpoint: http://127.0.0.1:3000/mcp
npx parley call http://127.0.0.1:3000/mcp book_table   # answer in the terminal
\`\`\`

\`PORT\` and \`HOST\` change where it listens (loopback by default).${
    options.oauth
      ? ` Every request needs a JWT access
token from \`OAUTH_ISSUER\` whose audience is this endpoint's URL, and \`book_table\` needs the scope
\`tables:book\`. The server publishes its protected resource metadata, so a host that supports MCP
authorization (the \`parley\` command and the lab do) signs the person in by itself.
\`OAUTH_JWKS_URI\` names the issuer's keys when its metadata does not.`
      : ''
  }
`;
}

function stdioSection(): string {
  return `## Use it from a host

Build it (\`npm run build\`), then give your host the command, e.g. in a host's JSON configuration:

\`\`\`json
{ "command": "node", "args": ["/path/to/this/folder/dist/main.js"] }
\`\`\`

\`npx parley call "node dist/main.js" book_table\` calls it from the terminal. stdout carries the
protocol: log to stderr.
`;
}
