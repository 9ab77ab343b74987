import { describe, expect, it } from 'vitest';
import { dropSignInPrompts } from '../../src/scrape/main-content/sign-in-prompts';
import { prunedText } from './pruned-text';

const prune = (body: string) => prunedText(body, dropSignInPrompts);
const POST = '<p>I liked the new design, but the left panel could use more contrast.</p>';

describe('dropSignInPrompts', () => {
  it('drops a guest teaser\'s prompts, buttons and pitch, keeps the post', () => {
    const teaser =
      '<div class="teaser"><h2>Create an account or sign in to comment</h2><p>You need to be a member in order to leave a comment</p>' +
      '<div><h3>Create an account</h3><p>Sign up for a new account in our community. It\'s easy!</p><a href="/register">Register a new account</a></div>' +
      '<div><h3>Sign in</h3><p>Already have an account? Sign in here.</p><a href="/login">Sign In Now</a></div></div>';
    const text = prune(`<div class="thread">${POST}${teaser}</div>`);
    expect(text).toContain('I liked the new design');
    for (const line of ['to comment', 'You need to be a member', 'Sign up for a new account', 'Register a new account', 'Already have an account?', 'Sign In Now']) expect(text).not.toContain(line);
  });

  it('drops one-line prompts and the signed-out notice', () => {
    const text = prune(
      `<div>${POST}<p>You must log in to answer this question.</p></div><div><p><a href="/login">Sign in</a> to add this item to your wishlist, follow it, or mark it as ignored</p></div>` +
        '<div><p>You are not logged in.</p></div>',
    );
    expect(text).toBe('I liked the new design, but the left panel could use more contrast.');
  });

  it("keeps a list's points and sentences that mention signing in", () => {
    const perks = '<ul><li>Answer the quiz to unlock a surprise</li><li>Register to join the online events</li></ul>';
    const howTo = '<p>Sign in to the admin console with the account you created in step 2, then open Settings and pick the region closest to your users.</p>';
    const text = prune(`<div>${perks}<h2>Sign in</h2>${howTo}<p>On the Edit menu, click <b>Join</b>.</p></div>`);
    expect(text).toContain('click Join.');
    expect(text).toContain('Register to join the online events');
    expect(text).toContain('Sign in\n');
    expect(text).toContain('Sign in to the admin console');
  });
});
