/**
 * Share links: the script travels in the URL hash (`#script=<base64url of deflate-raw UTF-8>`),
 * so nothing is sent to a server and the link works on any copy of the playground.
 */
const PREFIX = '#script=';

async function pump(data: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([data as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export async function encodeShareHash(script: string): Promise<string> {
  const packed = await pump(new TextEncoder().encode(script), new CompressionStream('deflate-raw'));
  return PREFIX + toBase64Url(packed);
}

/** The script in a share hash, or undefined when the hash is not one (or is corrupt). */
export async function decodeShareHash(hash: string): Promise<string | undefined> {
  if (!hash.startsWith(PREFIX)) return undefined;
  try {
    const bytes = await pump(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
