// titleCase upper-cases the first letter of each word and lower-cases the rest.
export function titleCase(text) {
  return text
    .split(' ')
    .map((word) => (word ? word[0].toUpperCase() + word.slice(2).toLowerCase() : word))
    .join(' ');
}

// truncate shortens text to at most max characters, ending with "…" when it cut.
export function truncate(text, max) {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
