import { compile, type Options } from 'css-select';

/**
 * CSS selector queries on a page's DOM, each selector compiled once per thread. Linkedom's
 * `querySelectorAll`, `querySelector`, `matches` and `closest` compile their selector with
 * css-select on every call, and the main-content rules ask them of element after element: a 2 KB
 * page's processing went from 3.8 to 2.2 ms with selectors compiled once, real pages' by a tenth
 * (docs/benchmarks.md). These run the same css-select on the same nodes, through the standard
 * DOM interface.
 */

const ELEMENT_NODE = 1;

const isTag = (node: Node): node is Element => node.nodeType === ELEMENT_NODE;
const childrenOf = (node: Node): Node[] => [...node.childNodes];

function findAll(test: (element: Element) => boolean, nodes: Node[]): Element[] {
  const found: Element[] = [];
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) found.push(node);
    found.push(...findAll(test, childrenOf(node)));
  }
  return found;
}

function findOne(test: (element: Element) => boolean, nodes: Node[]): Element | null {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) return node;
    const inside = findOne(test, childrenOf(node));
    if (inside) return inside;
  }
  return null;
}

/** css-select's view of a DOM (linkedom's, or any standard one). Tag names compare in lower case, as in an HTML document. */
const adapter: NonNullable<Options<Node, Element>['adapter']> = {
  isTag,
  existsOne: (test, nodes) => findOne(test, nodes) !== null,
  getAttributeValue: (element, name) => element.getAttribute(name) ?? undefined,
  getChildren: childrenOf,
  getName: (element) => element.localName.toLowerCase(),
  getParent: (node) => node.parentNode,
  getSiblings: (node) => (node.parentNode ? childrenOf(node.parentNode) : [node]),
  prevElementSibling: (node) => (isTag(node) ? node.previousElementSibling : null),
  getText: (node) => node.textContent ?? '',
  hasAttrib: (element, name) => element.hasAttribute(name),
  removeSubsets: (nodes) => nodes.filter((node) => !nodes.some((other) => other !== node && other.contains(node))),
  findAll,
  findOne,
};

type Matcher = (element: Element) => boolean;

/**
 * Compiled selectors, by their text. Most come from the code; a request's `includeTags` and
 * `excludeTags` add theirs, so the map is emptied when it grows past this.
 */
const MAX_COMPILED = 512;
const compiled = new Map<string, Matcher>();

/** The selector's test, compiled on first use. Invalid selectors throw, as `querySelectorAll` does. */
function matcherOf(selector: string): Matcher {
  let test = compiled.get(selector);
  if (!test) {
    // Results are not cached inside a compiled test: it outlives the DOM it was first run on, and pages change as they are cleaned.
    test = compile<Node, Element>(selector, { adapter, xmlMode: false, cacheResults: false });
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(selector, test);
  }
  return test;
}

/** The element after `at` in document order within `root`'s subtree; a `<template>`'s inside is not the page's, as in linkedom's own walk. */
function nextInside(root: Node, at: Element): Element | null {
  const first = at.localName === 'template' ? null : at.firstElementChild;
  if (first) return first;
  for (let node: Element | null = at; node && node !== root; node = node.parentElement) {
    if (node.nextElementSibling) return node.nextElementSibling;
  }
  return null;
}

/** `root.querySelectorAll(selector)`: the matching descendants of `root`, in document order. */
export function selectAll(root: Document | Element, selector: string): Element[] {
  const test = matcherOf(selector);
  const found: Element[] = [];
  const start = 'documentElement' in root ? root.documentElement : root.firstElementChild;
  for (let at = start; at; at = nextInside(root, at)) if (test(at)) found.push(at);
  return found;
}

/** `root.querySelector(selector)`: the first matching descendant of `root`, or null. */
export function selectOne(root: Document | Element, selector: string): Element | null {
  const test = matcherOf(selector);
  const start = 'documentElement' in root ? root.documentElement : root.firstElementChild;
  for (let at = start; at; at = nextInside(root, at)) if (test(at)) return at;
  return null;
}

/** `element.matches(selector)`. */
export function matches(element: Element, selector: string): boolean {
  return matcherOf(selector)(element);
}

/** `element.closest(selector)`, taking a missing element as having no match. */
export function closest(element: Element | null | undefined, selector: string): Element | null {
  const test = matcherOf(selector);
  for (let at = element ?? null; at; at = at.parentElement) if (test(at)) return at;
  return null;
}
