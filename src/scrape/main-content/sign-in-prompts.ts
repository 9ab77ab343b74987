import { dropLines, wholeLine } from './text-lines';

/**
 * What a site tells a visitor who is not signed in, where a member would see a reply box or a
 * control: "Create an account or sign in to comment", "You must log in to answer this
 * question.", "Sign in to add this item to your wishlist", "Already have an account? Sign in
 * here.", "You are not logged in.", and the buttons beside them. It is about the visitor, not
 * the page's subject. Only the lines go, not the box around them: a short post can share it.
 */

const SIGN_IN = '(?:log ?in|sign ?in|sign ?up|register|create an account|join)';
/** An invitation to sign in (or up) to do something. */
const SIGN_IN_TO = new RegExp(
  `^(?:please |you (?:must|need to|have to|should) )?(?:(?:be |become )?(?:a member|a registered user|logged in|signed in)|${SIGN_IN}(?: now| us| the community)?)(?: (?:or|and) ${SIGN_IN})?(?: now| first| here)?,? (?:to|in order to) \\p{L}+`,
  'iu',
);
/** The visitor's state, or the question that leads to the sign-in link. */
const SIGNED_OUT = /^(?:you are not (?:logged|signed) in\b|(?:already have an account|don'?t have an account|not a member(?: yet)?|new here)\?)/i;
/** A sign-in button or its one-line pitch: "Sign In Now", "Register a new account", "Sign up for a new account in our community. It's easy!". */
const SIGN_IN_CONTROL = new RegExp(`^(?:${SIGN_IN}(?: now| here)?|${SIGN_IN} (?:for )?an? (?:new |free )?account\\b.*)$`, 'i');
/** Longer lines are sentences of the page's own that mention signing in. */
const MAX_LENGTH = 100;

/** Removes, in place, the sign-in prompts under `root`. */
export function dropSignInPrompts(root: Element): void {
  dropLines(root, MAX_LENGTH, (text, element) => {
    // A list item is one of a list's points ("Register to join the online events" among a course's
    // perks); a word inside a line is part of a sentence ("click Join") or of code.
    if (element.localName === 'li') return false;
    // A heading "Sign in" opens a how-to's section on signing in.
    const prompt = SIGN_IN_TO.test(text) || SIGNED_OUT.test(text) || (!HEADING.test(element.localName) && SIGN_IN_CONTROL.test(text));
    return prompt && wholeLine(element);
  });
}

const HEADING = /^h[1-6]$/;
