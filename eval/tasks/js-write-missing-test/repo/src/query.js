// parseQuery reads a URL query string ("a=1&b=x%20y&a=2", with or without the leading "?") into an
// object: values are decoded ("+" is a space), a key given more than once maps to an array of its
// values in order, and a key without "=" maps to "".
export function parseQuery(query) {
  const out = {};
  const text = query.startsWith('?') ? query.slice(1) : query;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    if (Object.hasOwn(out, key)) {
      out[key] = [].concat(out[key], value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function decode(s) {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}
