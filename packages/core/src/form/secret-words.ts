// The words the secret guardrail knows: what names a secret, and the words around a secret that tell
// asking for it ("Enter your password") from mentioning it ("Forgot your password?").

/**
 * A way of naming a secret, matched at the start of each word of a text's words joined by single
 * spaces (break tokens are `.` and `,`, so a pattern never runs across a clause).
 */
export interface SecretPhrase {
  readonly pattern: RegExp;
  /** What it asks for, e.g. "a password" (shown in errors and to hosts). */
  readonly looksLike: string;
  /**
   * A word that names a secret only sometimes ("token", "secret", "cookie", "mnemonic"): it counts
   * only as a label of its own or as the object of a request ("Paste your token").
   */
  readonly weak?: true;
  /** Words right before the phrase that make it something else ("library card number"). */
  readonly notAfter?: ReadonlySet<string>;
  /**
   * A word that names a secret only as a field's whole label (`pass`, "Card"), where nothing on the
   * field says it is another kind ("Day pass", "Card message"); never in prose.
   */
  readonly alone?: true;
}

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/** Services whose "<name> key" or "<name> token" is a credential ("your OpenAI key"). */
const VENDORS =
  'openai|anthropic|claude|stripe|github|gitlab|bitbucket|google|gemini|mistral|cohere|groq|twilio|sendgrid|' +
  'mailgun|mailchimp|slack|discord|telegram|notion|linear|jira|confluence|atlassian|datadog|sentry|vercel|' +
  'netlify|cloudflare|supabase|firebase|pinecone|replicate|huggingface|hf|azure|aws|mapbox|algolia|shopify|' +
  'paypal|plaid|brave|hugging face|tavily|serpapi|exa|perplexity|deepseek|xai|elevenlabs|openrouter|fireworks|deepgram|' +
  'resend|postmark|airtable|hubspot|zendesk|intercom|figma|asana|trello|clickup|todoist|spotify|youtube|' +
  'courier|wolfram|finnhub|coinbase|binance|alchemy|infura|etherscan|npm|pypi|docker|dockerhub|heroku|' +
  'digitalocean|linode|fly|render|railway|neon|upstash|redis|mongodb|atlas|okta|auth0|clerk';

/** Words before a card or account number that show only part of it ("masked card number"). */
export const PARTIAL = words('masked redacted partial truncated obfuscated');

/** Cards that are not payment cards: their numbers are no secret. */
const NOT_PAYMENT_CARD = words(`
  library loyalty membership member rewards reward id identity insurance health medicare medical student
  flyer boarding business sim key employee transit metro oyster club voter report`);

/** Account numbers that are not bank accounts. */
const NOT_BANK_ACCOUNT = words(`
  customer utility member membership loyalty policy support aws azure gcp order reference electricity gas
  water phone mobile flyer service user steam ticket case contract subscriber insurance meter billing
  client player game`);

/** Codes that are nobody's secret ("promo code we emailed you"). */
const NOT_SECRET_CODE = words(`
  promo promotional discount coupon zip postal post area country language currency source error status exit
  response color colour tracking product item sku hs tax airport iata referral invite invitation voucher
  booking reservation qr bar dial diagnostic reason region locale sort swift bic shipping order gift`);

/** Keys anyone may see. */
const PUBLIC_KEY = words('public publishable primary');

export const SECRET_PHRASES: readonly SecretPhrase[] = [
  {
    pattern:
      /\b(?:(?:secret )?(?:seed|recovery|backup|mnemonic|secret) (?:phrases?|words)|wallet seeds?|(?:\d+|twelve|twenty four) words? (?:seed |recovery |backup |secret )?phrases?)\b/,
    looksLike: 'a recovery phrase',
  },
  { pattern: /\bmnemonic\b/, looksLike: 'a recovery phrase', weak: true },
  {
    pattern:
      /\b(?:(?:security|secret) (?:question )?answers?|answers? to (?:your |the |my )?security questions?|mothers? maiden names?)\b/,
    looksLike: 'a security answer',
  },
  {
    pattern:
      /\b(?:(?:credit|debit|payment|bank|cc) )?cards? (?:numbers?|num|no|nr|details|info|information|data|(?:verification|security) (?:codes?|values?|numbers?)|exp|expiry|expiration|expires)(?: dates?)?\b/,
    looksLike: 'payment card details',
    notAfter: NOT_PAYMENT_CARD,
  },
  {
    pattern:
      /\b(?:(?:expiry|expiration|exp) (?:date )?(?:of|on) (?:your |the )?(?:credit |debit |payment )?card|(?:\d+|three|four|sixteen) digits on the (?:front|back) of (?:your |the )?card)\b/,
    looksLike: 'payment card details',
  },
  {
    pattern:
      /\b(?:(?:credit|debit|payment) cards?|cc (?:numbers?|num|no|exp|expiry|expiration)|cvv|cvc|cvn|payment (?:details|information|info|credentials))\b/,
    looksLike: 'payment card details',
  },
  {
    pattern:
      /\b(?:ibans?|(?:routing|aba) numbers?|(?:bank|checking|savings) accounts?(?: (?:numbers?|num|no|nr|details|info|information))?|(?:bank|banking) (?:details|info|information))\b/,
    looksLike: 'bank account details',
  },
  {
    pattern: /\baccount (?:numbers?|num|no|nr)\b/,
    looksLike: 'bank account details',
    notAfter: NOT_BANK_ACCOUNT,
  },
  {
    pattern: /\b(?:passports?|(?:drivers?|driving) (?:licen[cs]es?|permits?)) (?:numbers?|num|no|nr)\b/,
    looksLike: 'an identity document number',
  },
  {
    pattern: /\b(?:ssns?|social security(?: numbers?| no| num| nr)?|social insurance numbers?)\b/,
    looksLike: 'a social security number',
  },
  {
    pattern:
      /\b(?:national (?:id|identity|identification|insurance)(?: (?:numbers?|no|num|nr|card numbers?))?|ni numbers?|nino|aadhaar(?: numbers?)?|tax file numbers?)\b/,
    looksLike: 'a national identity number',
  },
  {
    pattern:
      /\b(?:(?:api|apis|access|secret|private|signing|encryption|decryption|master|license|licence|activation|product|developer|subscription|recovery|service account) keys?|apikeys?)\b/,
    looksLike: 'a key',
    notAfter: PUBLIC_KEY,
  },
  { pattern: new RegExp(`\\b(?:${VENDORS}) keys?\\b`), looksLike: 'a key' },
  {
    pattern: new RegExp(
      '\\b(?:(?:access|auth|authentication|authorization|bearer|refresh|session|api|oauth|oauth 2|id|security|' +
        `secret|personal access|bot|app|user|deploy|service|reset|${VENDORS}) tokens?|jwts?|` +
        '(?:session|auth|authentication|login) cookies?)\\b',
    ),
    looksLike: 'a token',
  },
  { pattern: /\b(?:token|cookie)\b/, looksLike: 'a token', weak: true },
  {
    pattern: new RegExp(
      '\\b(?:(?:client|app|application|api|consumer|webhook|webhooks|signing|shared|oauth|jwt|totp|otp|mfa|2fa|' +
        `hmac|encryption|${VENDORS}) secrets?|secret (?:values?|strings?))\\b`,
      '',
    ),
    looksLike: 'a secret',
  },
  { pattern: /\bsecret\b/, looksLike: 'a secret', weak: true },
  {
    pattern:
      /\b(?:passwords?|passwds?|pwds?|pw|pword|pass (?:words?|codes?|phrases?)|passcodes?|passphrases?|(?:db|database|smtp|admin|root|user|login|mail|email|ftp|sftp|ssh|wifi|redis|mysql|postgres|pg|ldap|proxy|vpn|sudo|bind|keystore|imap|account) pass)\b/,
    looksLike: 'a password',
  },
  { pattern: /\bpass\b/, looksLike: 'a password', alone: true },
  { pattern: /\bcredentials\b/, looksLike: 'login credentials' },
  {
    pattern:
      /\b(?:(?:otp|totp|hotp|2fa|mfa|tfa|twofa)(?: (?:codes?|tokens?|pins?|numbers?|passwords?|passcodes?))?|(?:two|2) (?:factor|step) (?:auth |authentication |verification |login )?(?:codes?|tokens?|pins?)|(?:one time|onetime) (?:codes?|passwords?|passcodes?|pass codes?|pins?|tokens?)|(?:verification|verify|auth|authentication|authenticator|authorization|login|log in|sign in|signin|sms|text message|recovery|backup|access|unlock|magic|security) (?:app )?codes?|(?:\d+|four|five|six|seven|eight) digit (?:codes?|passcodes?)|puk(?: codes?)?)\b/,
    looksLike: 'a PIN or one-time code',
  },
  {
    // A code the person was sent: "the code we texted you", "texted you a 6-digit code".
    pattern:
      /\b(?:codes? (?:that )?(?:we |i )?(?:just )?(?:texted|emailed|sent|messaged|gave)|(?:texted|emailed|sent|messaged) (?:to )?you (?:a |an |the |your )?(?:(?:\d+|four|six|eight) digit )?(?:verification |login |sign in |one time |security |confirmation |sms )?codes?|codes? (?:sent )?(?:to|on) your (?:phone|email|mobile|number|inbox|device|cell)|codes? (?:(?:shown|displayed|generated) )?(?:from|in|on|by) (?:your |the |my )?(?:google |microsoft |authy )?(?:authenticator app|authenticator|sms|text messages?|texts?|emails?|phone|app|inbox|messages|bank))\b/,
    looksLike: 'a PIN or one-time code',
    notAfter: NOT_SECRET_CODE,
  },
  { pattern: /\bpin(?: (?:numbers?|codes?))?\b/, looksLike: 'a PIN or one-time code' },
  { pattern: /\bcards?\b/, looksLike: 'payment card details', alone: true },
];

/**
 * Every phrase above holds one of these words, at most {@link PHRASE_REACH} words after its start: a
 * text without them names no secret, and phrases are only tried near them.
 */
export const ANCHORS = words(`
  password passwords passwd passwds pwd pwds pw pword pass passcode passcodes passphrase passphrases pin puk key
  keys apikey apikeys token tokens jwt jwts cookie cookies secret secrets code codes card cards cc cvv cvc cvn iban
  ibans account accounts routing aba bank banking ssn ssns social national ni nino aadhaar tax otp totp hotp 2fa
  mfa tfa twofa credentials seed seeds mnemonic phrase phrases words answer answers maiden payment passport
  passports license licenses licence licences permit permits`);

/** How far into a phrase its anchor may stand ("texted to you a 6 digit verification code"). */
export const PHRASE_REACH = 10;

/**
 * Words right after a secret's name that make the name a modifier of something else: "password
 * policy", "API key name", "token count", "card number ending in 4242".
 */
export const ATTRIBUTES = words(`
  name names label labels id ids identifier count counts length len limit limits budget policy policies reset
  resets expiry expiration expires expired expire age hint hints strength rule rules requirement requirements
  type types kind format formats prefix suffix location path file files filename url urls uri link links page
  pages manager managers rotation rotated scope scopes permission permissions provider providers status created
  creation date enabled disabled enable disable changed change accepted visible visibility field fields
  protected protection history complexity description title nickname owner holder holders usage quota rate
  header headers docs documentation settings setting option options help reminder recovery login auth
  authentication based mode method methods flow flows screen prompt dialog box column columns table store vault
  storage version versions list position mask masked placeholder generator entropy score last updated update
  issuer audience claims algorithm endpoint env variable variables var amount balance symbol address decimals
  supply contract price validity lifetime ttl timeout window sharing fingerprint hash hashes digest checksum
  size bits ending counter stats statistics metrics report audit log logs event events requests regex pattern
  validation strategy template brand network alias santa question questions consent banner preferences flavor
  flavour days hours minutes seconds delivery channel resend retry attempts tries lockout set menu rotate
  revoked revoke leak leaked min max minimum maximum`);

/**
 * Words after a secret in an identifier that make it a flag about the secret (`mfaRequired`,
 * `api_key_set`), not the secret.
 */
export const FLAG_SUFFIXES = words(
  'required needed present provided valid verified ok exists missing configured',
);

/**
 * Words that may follow a weak secret word that names the secret ("the token from Slack", "Secret:",
 * "Token required"); any other word makes it an adjective or a different thing ("Secret Santa").
 */
export const WEAK_HEAD_NEXT = words(`
  value here below please required needed again now from for of you we i shown given provided issued generated
  displayed printed used and or to access`);

/** Words that may follow a label that names a secret in prose ("The API key from your dashboard"). */
export const LABEL_NEXT = words(`
  from for of with in on at by to sent shown given provided required needed issued generated displayed printed
  used texted emailed you we i please here below again only now value and or e`);

/** Verbs that ask the person to type, paste or hand over something ("Enter", "Paste", "Share"). */
export const REQUEST_VERBS = words(`
  enter type paste input provide share send give submit supply key fill tell reply respond confirm reenter
  retype repeat add insert specify include verify`);

/** Verbs that ask the person to make up a secret of their own: only passwords, PINs and answers. */
export const INVENT_VERBS = words('set choose create pick make');

/** Secrets the person makes up (so "Choose a PIN" asks, "Create an API key?" does not). */
export const INVENTED = new Set(['a password', 'a PIN or one-time code', 'a security answer']);

/** Request verbs that take the secret as "it" after naming it first ("We texted you a code. Enter it."). */
export const PRONOUN_VERBS = words('enter type paste input key fill submit provide reply');

/** What a request verb may follow in its clause and still be a request ("Please enter", "Then type"). */
export const IMPERATIVE_LEADS = words(
  'please kindly now then just also and or first next so ok okay finally lastly simply re',
);

/** Particles that belong to the verb ("type in", "fill in", "reply with"). */
export const PARTICLES = words('in out down with');

/**
 * Words between a request verb and the secret that show the secret is not its object: "Enter a
 * name for the API key", "Enter your email so we can send your password".
 */
export const REQUEST_BLOCKERS = words(`
  to for of about into onto on in from with by so because if when that which who where while before after until
  unless than we i they he she it is are was were will would can should could has have had do does did not never
  without instead`);

/** Auxiliaries and modals: a clause that starts with one is a yes/no question ("Is 2FA required?"). */
export const AUXILIARIES = words(`
  is are was were be been being am do does did has have had will would can could should may might must shall
  cannot`);

/** What stands before a secret the person is asked to hand over ("Paste your token"). */
export const DETERMINERS = words('your the my this our');

export const QUESTION_WORDS = words('what which how why when where who whom whose whether if');

export const SUBJECT_PRONOUNS = words('i we you they he she it us them me');

export const NEGATIONS = words('not never no without instead nor');

/** Prepositions and conjunctions that start a phrase the secret is part of ("name for the new API key"). */
export const PREPOSITIONS = words(`
  to for of with in on at from by about into onto until after before via per under over next like as so because
  than that`);

/**
 * Verbs that do something with a secret rather than ask for it ("Forgot password?", "Revoke the API
 * key?", "Save the password in my keychain"). With the request verbs, they keep a text from reading as
 * a label.
 */
export const OTHER_VERBS = words(`
  forgot forget forgotten reset remember remembered lost lose change changed update updated rotate rotated
  revoke revoked delete deleted remove removed regenerate generate create created use used using enable enabled
  disable disabled require required requires store stored save saved keep kept show hide hidden reveal copy
  copied manage view list open drop pay charge apply extend renew get got receive received sent text texted
  emailed sign log turn set pick choose select plan book deploy approve allow check test validate protect
  encrypt hash export import download upload sync lock expire expired leak leaked find found want like write
  wrote written need needs lacks has have had`);

/** Words before a PIN that make it a pin of hardware or a map ("GPIO pin", "map pin"). */
export const NOT_SECRET_PIN = words(`
  gpio map lapel bowling hair safety drawing push header output input analog digital data led power ground io
  board cotter rolling tie drop`);

/** Words in a field's other texts that make its "pin" a pin of hardware or a map (`pin` titled "GPIO pin"). */
export const PIN_OF_THINGS = words('gpio map lapel bowling led');

/** Words anywhere around a "PIN code" that make it a postal code (Indian "PIN code of the post office"). */
export const POSTAL = words(
  'post postal office delivery address city area district locality zip shipping india',
);

/** Words after "pin" that make it a verb ("Pin this chat", "Pin to top"). */
export const PIN_VERB_OBJECTS = words(
  'this that these those it them the a an to on my your our his her their',
);
