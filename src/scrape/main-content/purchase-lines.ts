import { dropLines, visibleLength } from './text-lines';
import { selectAll } from '../html/css-selectors';

/**
 * The shop's lines around a product, the same on every product it sells: delivery and returns
 * promises, payment plans, loyalty points, stock and size pickers ("Free 90-day returns", "or 4
 * interest-free payments of $5", "Members earn 179 points", "Select a size"). The product page's
 * content is the product: its name, price, description and specs.
 */
const PURCHASE_LINE = new RegExp(
  [
    String.raw`\bfree (?:standard |express |next[- ]day |uk |us )?(?:shipping|delivery|returns?)\b`,
    String.raw`\b\d+[- ]day (?:free )?returns?\b`,
    String.raw`\breturns? (?:&|and) (?:exchanges?|refunds?)\b`,
    String.raw`\b(?:standard|express|next[- ]day|same[- ]day|home) (?:delivery|shipping)\b`,
    // The shop's promises printed as badges beside every product.
    String.raw`^(?:easy|hassle[- ]free|fast|quick) (?:returns?|exchanges?|shipping|delivery)$`,
    String.raw`\bships? (?:free|today|the same day|within|in \d|by \w+|from)\b`,
    String.raw`\b(?:arrives|delivery|pickup) (?:by|on|between|today|tomorrow)\b`,
    String.raw`\border (?:within|in the next|by \d)\b`,
    String.raw`\b(?:in|out of) stock\b`,
    String.raw`\bpay in \d\b`,
    String.raw`\b\d+ (?:interest[- ]free )?(?:payments|installments|instalments)\b`,
    String.raw`\bbuy now,? pay later\b`,
    String.raw`\bchoose (?:an? |your )?(?:annual|monthly|yearly) plan\b`,
    String.raw`\b(?:earns?|collect|get) (?:up to )?\d[\d,]* ?(?:points|xp|rewards?)\b`,
    // Membership perks: what members earn back, the bonus for joining.
    String.raw`\bmembers? (?:get|earn)s? (?:up to |an? )?(?:est(?:\.|imated) )?[$€£\d]|\bmember (?:rewards?|bonus(?: card)?|benefits?)\b|\bpays for (?:your |the )?membership\b`,
    String.raw`\bsold (?:and shipped )?by\b`,
    String.raw`\b(?:size guide|size chart|true to size|fits (?:small|large))\b`,
    String.raw`^(?:select|choose) (?:a |your )?(?:size|colou?r|quantity|option)s?\b|^(?:currently )?selected:? (?:size|colou?r)\b|^current(?:ly)? selected (?:size|colou?r)\b`,
    // A picker's label left without its options, and the notice over a summary a model wrote.
    String.raw`^(?:quantity|qty)\s*:?$|^(?:ai[- ]generated|generated (?:by|with) ai)\b`,
    // Saving it for later, watching its price, haggling, buying in bulk, sharing it; how many
    // others are buying it.
    String.raw`\bwish ?list\b|\bprice alert\b|\bmake an offer\b|\bbulk (?:pricing|discounts?)\b|^share this (?:product|item)\b`,
    String.raw`\bin \d[\d,]*\+? (?:people's |other )?(?:carts|baskets|bags)\b`,
    // Rating badges: the reviews themselves are pruned as a section.
    String.raw`\b\d(?:\.\d+)? (?:stars? )?out of 5\b|^\d(?:\.\d+)? stars? out of \d[\d,]* (?:reviews?|ratings?)$`,
    String.raw`^\(?\d[\d,.]*\)? (?:reviews?|ratings?)$`,
    String.raw`^(?:no reviews yet|there are no reviews yet|be the first to (?:review|write a review))`,
    // Price terms, the seller's standing, add-on plans and ways to pay.
    String.raw`\b(?:vat|tax(?:es)?) (?:included|excluded)\b|\bincl(?:\.|uding|udes)? (?:vat|tax(?:es)?)\b|\b(?:plus|excl(?:\.|uding)?) (?:shipping|delivery)\b`,
    String.raw`\bprice when purchased online\b|\blow price guarantee\b|\bprice match(?: guarantee)?\b|\bprice drops?\b.{0,40}\bdifference\b|\bduties (?:and|&) taxes\b`,
    String.raw`\bprotection plan\b|\bgift[- ](?:eligible|wrap(?:ping)?)\b`,
    // The shop's promise about its goods, an add-on prompt, the delivery location picked.
    String.raw`^we stand behind (?:our|all our|every|each)\b|^\W*don'?t forget (?:your|to add)\b|\bshop now$|^[A-Z][a-z]+(?: [A-Z][a-z]+)*, (?:[A-Z]{2} )?\d{5}$`,
    String.raw`^(?:about (?:this|the) seller|seller(?:'s)? (?:feedback|information|info|other items)|more seller options\b.*|more ways to pay|payment options|checking payment options.*|best ?seller|no feedback yet|sell it back)$|^star seller\b`,
  ].join('|'),
  'i',
);
/** Longer lines are the product's description, which may mention delivery in passing. */
const MAX_LENGTH = 150;

/** Removes, in place, the lines under `root` that are the shop's purchase terms. */
export function dropPurchaseLines(root: Element): void {
  dropLines(root, MAX_LENGTH, (text) => PURCHASE_LINE.test(text));
}

/** A group of options the buyer picks from: size, colour, plan, delivery or pickup. */
const PICKER = 'fieldset, [role="radiogroup"], [role="listbox"]';
/** What a picker shows once its inputs and labels are gone: its legend and the choice made. Longer is more than a picker. */
const PICKER_LENGTH = 100;

/** Removes, in place, the option pickers under `root` ("Color: white", "How do you want your item?"). */
export function dropPickers(root: Element): void {
  for (const picker of selectAll(root, PICKER)) if (root.contains(picker) && visibleLength(picker) <= PICKER_LENGTH) picker.remove();
}

/** The shop's terms, said in a paragraph: returns or refunds, within so many days, with the order's shipping or the warranty. */
const POLICY = { returns: /\b(?:returns?|refunds?)\b/i, days: /\b\d+[- ]days?\b|\bwithin \d+\b/i, terms: /\b(?:warranty|orders?|shipping|delivery|exchanges?)\b/i, maxLength: 700 };

/** Removes, in place, the paragraphs under `root` that state the shop's return and warranty terms (an FAQ answer: "We offer a 90-day return policy..."). */
export function dropPolicyParagraphs(root: Element): void {
  for (const paragraph of selectAll(root, 'p, li, dd')) {
    if (!root.contains(paragraph) || visibleLength(paragraph) > POLICY.maxLength) continue;
    const text = paragraph.textContent ?? '';
    if (POLICY.returns.test(text) && POLICY.days.test(text) && POLICY.terms.test(text)) paragraph.remove();
  }
}
