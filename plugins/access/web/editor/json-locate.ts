/**
 * Where a JSON pointer's value sits in JSON text, so a server error at `/statements/2/effect` can be
 * marked at that spot in the editor. Tolerant: on text that does not parse it locates what it read
 * before the error; a pointer to something missing lands on its nearest existing ancestor.
 */
export interface TextRange {
  start: number;
  end: number;
}

interface JsonNode extends TextRange {
  children?: Map<string, JsonNode>;
}

class Stop extends Error {}

function parse(text: string): JsonNode | null {
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new Stop();
  };
  function string(): string {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return text.slice(start + 1, i - 1);
    }
  }
  function value(holder: { node: JsonNode | null }): JsonNode {
    skip();
    const start = i;
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      const node: JsonNode = { start, end: start + 1, children: new Map() };
      holder.node = node;
      i++;
      skip();
      const close = ch === '{' ? '}' : ']';
      let index = 0;
      while (text[i] !== close) {
        if (i >= text.length) fail();
        let key = String(index++);
        if (ch === '{') {
          if (text[i] !== '"') fail();
          key = string();
          skip();
          if (text[i] !== ':') fail();
          i++;
        }
        const child: { node: JsonNode | null } = { node: null };
        try {
          node.children!.set(key, value(child));
        } catch (error) {
          if (child.node) node.children!.set(key, child.node);
          node.end = i;
          throw error;
        }
        skip();
        if (text[i] === ',') {
          i++;
          skip();
        } else if (text[i] !== close) fail();
      }
      i++;
      node.end = i;
      return node;
    }
    if (ch === '"') {
      string();
    } else {
      const match = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!match) fail();
      i += match![0].length;
    }
    const node = { start, end: i };
    holder.node = node;
    return node;
  }
  const root: { node: JsonNode | null } = { node: null };
  try {
    value(root);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  return root.node;
}

const decode = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The range of the value at `pointer` (`/2/effect`), or of its nearest ancestor; null for no JSON at all. */
export function locatePointer(text: string, pointer: string): TextRange | null {
  const root = parse(text);
  if (!root) return null;
  let node: JsonNode = root;
  const segments = pointer === '' ? [] : pointer.split('/').slice(1).map(decode);
  for (const segment of segments) {
    const child: JsonNode | undefined = node.children?.get(segment);
    if (!child) break;
    node = child;
  }
  return { start: node.start, end: node.end };
}
