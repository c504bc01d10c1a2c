/** The 64 characters of base64url (RFC 4648 §5), each at the index of the six bits it stands for. */
export const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
