import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processBody } from '../../src/scrape/process/process-body';
import { loadWcxb } from '../content/wcxb-corpus';

/*
 * Markdown of real pages (WCXB, Murrough Foley 2026, CC-BY-4.0: test/fixtures/wcxb and
 * test/fixtures/wcxb-markdown), main content, as a user gets it from a scrape.
 */
const pages = [...loadWcxb(path.join(__dirname, '../fixtures/wcxb')), ...loadWcxb(path.join(__dirname, '../fixtures/wcxb-markdown'))];

async function markdownOf(id: string, onlyMainContent = true): Promise<string> {
  const page = pages.find((p) => p.id === id)!;
  const result = await processBody(page.html, 'text/html; charset=utf-8', page.url, { formats: ['markdown'], onlyMainContent, removeBase64Images: true });
  return result.markdown;
}

/** Lines outside fenced code blocks and tables, where the page's prose is. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').filter((line) => {
    const opens = /^ *(`{3,})/.exec(line)?.[1];
    if (fence) {
      if (opens && line.trim() === fence) fence = null;
      return false;
    }
    if (opens) {
      fence = opens;
      return false;
    }
    return !line.trimStart().startsWith('|');
  });
}

describe('markdown of real pages', () => {
  it('writes a GFM table with its header, divider and each row, line breaks in a cell as <br> (UT RecSports prices)', async () => {
    const markdown = await markdownOf('0053');
    expect(markdown).toContain(
      [
        '| **Package** | Fee |',
        '| --- | --- |',
        '| **Get Started with Personal Training**<br>Designed for participants who are new to personal training. Includes a fitness assessment, space orientation, and 2 personal training sessions | Student: $80<br>RecSports Member: $130 |',
        '| **2 personal training sessions** | Student: $80<br><br>RecSports Member: $130 |',
      ].join('\n'),
    );
  });

  it('fences code with its language and keeps its indentation (The Rust Programming Language; tokio on docs.rs)', async () => {
    const rust = await markdownOf('0667');
    expect(rust).toContain('```rust\nfn main() {\n    {                      // s is not valid here, since it\'s not yet declared\n        let s = "hello";   // s is valid from this point forward\n');
    const tokio = await markdownOf('4397');
    expect(tokio).toContain('```toml\ntokio = { version = "1", features = ["full"] }\n```');
  });

  it('numbers a tutorial\'s steps and keeps each step\'s code and sub-list inside it (go.dev, Get started)', async () => {
    const markdown = await markdownOf('2997');
    expect(markdown).toContain('1. Open a command prompt and cd to your home directory.\n\n   On Linux or Mac:\n\n   ```\n   cd\n   ```');
    expect(markdown).toContain('5. Paste the following code into your hello.go file and save the file.\n\n   ```\n   package main\n\n   import "fmt"\n');
    expect(markdown).toContain("   - Declare a `main` package (a package is a way to group functions, and it's made up of all the files in the same directory).\n   - Import the popular [`fmt` package](https://pkg.go.dev/fmt/)");
    expect(markdown).toContain('\n6. Run your code to see the greeting.');
  });

  it('writes links and images at absolute addresses, query strings decoded', async () => {
    const markdown = await markdownOf('0637');
    expect(markdown).toContain('![Soft](https://www.skullcandy.com/cdn/shop/files/Crusher540Active_Soft_9.jpg?v=1762210740&width=165)');
    expect(await markdownOf('0035')).toContain('![The Best Restaurants in Oklahoma City](https://www.camelsandchocolate.com/wp-content/uploads/2019/07/Mary-Eddys-7.jpg)');
    expect(await markdownOf('2997')).toContain('Just use the [Download and install](https://go.dev/doc/install) steps.');
    for (const page of pages) {
      const markdown = await markdownOf(page.id, false);
      const targets = [...markdown.matchAll(/\]\(<?([^)\s>]+)/g)].map((m) => m[1]!);
      expect(targets.filter((url) => !/^(?:[a-z][a-z\d+.-]*:|#)/i.test(url)), page.id).toEqual([]);
      expect(markdown, page.id).not.toContain('&amp;');
    }
  });

  it("keeps a list item's heading, source line and teaser inside the item (Stanford NSSA news)", async () => {
    const markdown = await markdownOf('0082');
    expect(markdown).toMatch(/^- ---\n\n  #### \[Philadelphia’s tutoring program shows promise but faces familiar obstacle: expanding it effectively\]\(https:\/\/nssa\.stanford\.edu\/news\//m);
  });

  it('leaves no runs of spaces in prose, whole page or main content', async () => {
    for (const page of pages) {
      for (const onlyMainContent of [true, false]) {
        const runs = proseLines(await markdownOf(page.id, onlyMainContent)).filter((line) => /\S {3,}\S/.test(line));
        expect(runs, `${page.id} ${onlyMainContent ? 'main content' : 'whole page'}`).toEqual([]);
      }
    }
  });
});
