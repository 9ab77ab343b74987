import { nameWords, normalizeName, type SchemaKind } from '../../json-schema/json-schema';

/**
 * What a caller's property name usually means in the page's markup: the schema.org paths that
 * hold it (most specific first), the meta tags and the table labels that state it.
 */
export interface Concept {
  /** Names a caller gives the property, normalized (`datePublished` → `datepublished`). */
  names: string[];
  /** schema.org paths on the page's main entity, first match wins. */
  paths: string[];
  meta?: string[];
  /** Table and definition-list labels, normalized; `names` count too. */
  labels?: string[];
  /** Only for properties of these kinds (`reviews` the list is not `reviews` the count). */
  kinds?: SchemaKind[];
}

const SCALAR: SchemaKind[] = ['string', 'number', 'integer', 'boolean', 'any'];
const NUMERIC: SchemaKind[] = ['number', 'integer', 'string'];
const ADDRESS = ['address', 'location.address', 'jobLocation.address'];
const addressPaths = (field: string) => ADDRESS.map((a) => `${a}.${field}`);

export const CONCEPTS: Concept[] = [
  { names: ['name', 'productname', 'producttitle', 'eventname', 'recipename', 'organizationname', 'orgname', 'fullname', 'itemname'], paths: ['name', 'headline', 'title'], meta: ['og:title', 'twitter:title', 'title'], labels: ['name', 'productname'] },
  { names: ['title', 'headline', 'articletitle', 'heading', 'posttitle', 'pagetitle'], paths: ['headline', 'name', 'title'], meta: ['og:title', 'twitter:title', 'title'] },
  { names: ['jobtitle', 'position', 'role', 'positiontitle'], paths: ['title', 'jobTitle', 'name'], kinds: SCALAR },
  { names: ['description', 'summary', 'desc', 'about', 'overview', 'abstract', 'blurb', 'intro', 'synopsis'], paths: ['description', 'abstract'], meta: ['og:description', 'description', 'twitter:description'] },
  { names: ['price', 'cost', 'currentprice', 'saleprice', 'offerprice', 'productprice', 'priceamount', 'ticketprice', 'amount'], paths: ['offers.price', 'offers.lowPrice', 'price', 'offers.priceSpecification.price', 'priceSpecification.price', 'lowPrice'], meta: ['product:price:amount', 'og:price:amount'], labels: ['price', 'ourprice', 'saleprice', 'cost'], kinds: NUMERIC },
  { names: ['highprice', 'maxprice', 'pricemax'], paths: ['offers.highPrice', 'highPrice'], kinds: NUMERIC },
  { names: ['lowprice', 'minprice', 'pricemin', 'pricefrom', 'startingprice'], paths: ['offers.lowPrice', 'lowPrice', 'offers.price'], kinds: NUMERIC },
  { names: ['currency', 'pricecurrency', 'currencycode', 'salarycurrency'], paths: ['offers.priceCurrency', 'priceCurrency', 'offers.priceSpecification.priceCurrency', 'currency', 'baseSalary.currency', 'estimatedSalary.currency'], meta: ['product:price:currency', 'og:price:currency'] },
  { names: ['availability', 'stock', 'stockstatus', 'instock', 'isavailable', 'available', 'inventorystatus', 'availabilitystatus', 'isinstock'], paths: ['offers.availability', 'availability'], meta: ['product:availability', 'og:availability'] },
  { names: ['condition', 'itemcondition', 'productcondition'], paths: ['offers.itemCondition', 'itemCondition'], meta: ['product:condition'] },
  { names: ['brand', 'brandname', 'manufacturer', 'make', 'maker'], paths: ['brand.name', 'brand', 'manufacturer.name', 'manufacturer'], meta: ['product:brand', 'og:brand'] },
  { names: ['sku', 'stockkeepingunit', 'itemnumber', 'articlenumber', 'productid', 'productcode', 'itemcode'], paths: ['sku', 'offers.sku', 'productID'], labels: ['sku', 'itemnumber', 'articlenumber', 'artno', 'itemno', 'productcode'] },
  { names: ['mpn', 'partnumber', 'manufacturerpartnumber', 'modelnumber'], paths: ['mpn'], labels: ['mpn', 'partnumber', 'modelnumber', 'partno'] },
  { names: ['gtin', 'ean', 'upc', 'barcode', 'gtin13', 'gtin12', 'isbn'], paths: ['gtin13', 'gtin', 'gtin12', 'gtin14', 'gtin8', 'isbn', 'offers.gtin13'], labels: ['ean', 'upc', 'gtin', 'barcode', 'isbn'] },
  { names: ['model'], paths: ['model.name', 'model'] },
  { names: ['color', 'colour'], paths: ['color'] },
  { names: ['material'], paths: ['material'] },
  { names: ['seller', 'merchant', 'vendor', 'store', 'shop', 'retailer', 'soldby', 'sellername'], paths: ['offers.seller.name', 'seller.name', 'offers.seller'], meta: ['og:site_name'] },
  { names: ['rating', 'averagerating', 'ratingvalue', 'stars', 'starrating', 'reviewscore', 'avgrating', 'score', 'userrating'], paths: ['aggregateRating.ratingValue', 'ratingValue', 'reviewRating.ratingValue'], labels: ['rating', 'averagerating'], kinds: NUMERIC },
  { names: ['reviewcount', 'reviews', 'numberofreviews', 'numreviews', 'reviewscount', 'totalreviews', 'ratingcount', 'numberofratings', 'ratingscount', 'votes'], paths: ['aggregateRating.reviewCount', 'aggregateRating.ratingCount', 'reviewCount', 'ratingCount'], kinds: NUMERIC },
  { names: ['reviews', 'review', 'customerreviews'], paths: ['review'], kinds: ['array'] },
  { names: ['image', 'imageurl', 'img', 'picture', 'photo', 'thumbnail', 'mainimage', 'productimage', 'featuredimage', 'coverimage', 'images', 'photos', 'pictures', 'imageurls'], paths: ['image.url', 'image.contentUrl', 'image', 'thumbnailUrl'], meta: ['og:image', 'twitter:image', 'og:image:url'] },
  { names: ['url', 'link', 'href', 'pageurl', 'canonicalurl', 'producturl', 'permalink', 'articleurl', 'joburl'], paths: ['url', 'mainEntityOfPage'], meta: ['og:url', 'canonical'] },
  { names: ['website', 'homepage', 'websiteurl', 'site'], paths: ['url', 'sameAs'], kinds: SCALAR },
  { names: ['author', 'authorname', 'writer', 'by', 'byline', 'creator', 'authors', 'writtenby'], paths: ['author.name', 'author', 'creator.name', 'creator'], meta: ['author', 'article:author', 'parsely-author', 'sailthru.author'], labels: ['author', 'by', 'writtenby'] },
  { names: ['datepublished', 'publisheddate', 'publishdate', 'published', 'publishedat', 'publicationdate', 'pubdate', 'publishedon', 'releasedate', 'publishedtime'], paths: ['datePublished', 'dateCreated', 'uploadDate', 'datePosted', 'releaseDate'], meta: ['article:published_time', 'datepublished', 'pubdate', 'publish_date', 'dc.date', 'dcterms.created', 'parsely-pub-date', 'sailthru.date', 'date'], labels: ['published', 'publicationdate', 'releasedate', 'datepublished'] },
  { names: ['datemodified', 'modifiedat', 'updatedat', 'lastmodified', 'updated', 'modifieddate', 'lastupdated', 'updatedon', 'modified'], paths: ['dateModified'], meta: ['article:modified_time', 'og:updated_time', 'dcterms.modified'], labels: ['updated', 'lastupdated', 'lastmodified'] },
  { names: ['date', 'when', 'datetime'], paths: ['startDate', 'datePublished', 'datePosted', 'dateCreated', 'uploadDate'], meta: ['article:published_time', 'date'] },
  { names: ['dateposted', 'postedat', 'posteddate', 'posted', 'postingdate', 'postedon'], paths: ['datePosted', 'datePublished'], labels: ['posted', 'dateposted'] },
  { names: ['startdate', 'start', 'starttime', 'startsat', 'begins', 'eventdate', 'eventstart', 'startdatetime', 'startson'], paths: ['startDate'], labels: ['start', 'starts', 'date', 'startdate'] },
  { names: ['enddate', 'end', 'endtime', 'endsat', 'finishes', 'eventend', 'enddatetime'], paths: ['endDate'], labels: ['end', 'ends', 'enddate'] },
  { names: ['doortime', 'doorsopen', 'doors'], paths: ['doorTime'] },
  { names: ['venue', 'location', 'place', 'venuename', 'locationname', 'where', 'joblocation', 'worklocation'], paths: ['location.name', 'location', 'jobLocation.address.addressLocality', 'jobLocation.name', 'jobLocation.address', 'contentLocation.name'], labels: ['venue', 'location', 'place', 'where'] },
  { names: ['address', 'fulladdress', 'venueaddress', 'headquarters', 'hq', 'officeaddress', 'postaladdress', 'locationaddress'], paths: ['address', 'location.address', 'jobLocation.address'], labels: ['address', 'headquarters'] },
  { names: ['streetaddress', 'street', 'addressline1', 'addressline'], paths: addressPaths('streetAddress') },
  { names: ['city', 'locality', 'town', 'addresslocality'], paths: addressPaths('addressLocality'), labels: ['city'] },
  { names: ['region', 'state', 'province', 'addressregion', 'county'], paths: addressPaths('addressRegion'), labels: ['state', 'region'] },
  { names: ['postalcode', 'zip', 'zipcode', 'postcode'], paths: addressPaths('postalCode') },
  { names: ['country', 'addresscountry', 'countryname', 'countrycode'], paths: [...addressPaths('addressCountry.name'), ...addressPaths('addressCountry')], labels: ['country'] },
  { names: ['organizer', 'organiser', 'host', 'organizername', 'hostedby', 'presentedby'], paths: ['organizer.name', 'organizer'], labels: ['organizer', 'organiser', 'host'] },
  { names: ['performer', 'performers', 'artist', 'artists', 'lineup', 'speaker', 'speakers', 'band'], paths: ['performer.name', 'performer'], labels: ['performer', 'artist', 'lineup', 'speakers'] },
  { names: ['eventstatus', 'status'], paths: ['eventStatus'] },
  { names: ['attendancemode', 'eventattendancemode', 'eventformat'], paths: ['eventAttendanceMode'] },
  { names: ['isfree', 'free', 'freeentry', 'freeadmission', 'accessibleforfree'], paths: ['isAccessibleForFree'] },
  { names: ['ingredients', 'ingredient', 'recipeingredient', 'recipeingredients', 'ingredientlist'], paths: ['recipeIngredient', 'ingredients'], labels: ['ingredients'] },
  { names: ['instructions', 'steps', 'directions', 'method', 'recipeinstructions', 'preparation', 'howto'], paths: ['recipeInstructions.itemListElement.text', 'recipeInstructions.text', 'recipeInstructions'], labels: ['instructions', 'directions', 'method'] },
  { names: ['preptime', 'preparationtime', 'prep', 'prepminutes', 'preptimeminutes'], paths: ['prepTime'], labels: ['prep', 'preptime', 'preparationtime'] },
  { names: ['cooktime', 'cookingtime', 'cook', 'cookminutes', 'cooktimeminutes', 'bakingtime'], paths: ['cookTime'], labels: ['cook', 'cooktime', 'cookingtime'] },
  { names: ['totaltime', 'readyin', 'totalminutes', 'totaltimeminutes', 'duration'], paths: ['totalTime', 'duration'], labels: ['total', 'totaltime', 'readyin'] },
  { names: ['servings', 'yield', 'recipeyield', 'serves', 'portions', 'numberofservings', 'makes'], paths: ['recipeYield'], labels: ['servings', 'serves', 'yield', 'makes'] },
  { names: ['calories', 'kcal', 'energy', 'caloriesperserving'], paths: ['nutrition.calories'], labels: ['calories'] },
  { names: ['cuisine', 'recipecuisine'], paths: ['recipeCuisine'], labels: ['cuisine'] },
  { names: ['category', 'recipecategory', 'course', 'productcategory'], paths: ['recipeCategory', 'category', 'articleSection'], labels: ['category', 'course'] },
  { names: ['section', 'articlesection'], paths: ['articleSection'], meta: ['article:section'], labels: ['section'] },
  { names: ['wordcount', 'words', 'numberofwords'], paths: ['wordCount'] },
  { names: ['keywords', 'tags', 'topics', 'labels', 'keyword', 'tag'], paths: ['keywords'], meta: ['keywords', 'news_keywords', 'article:tag'], labels: ['keywords', 'tags'] },
  { names: ['publisher', 'publishername', 'publication', 'sitename', 'outlet', 'newspaper'], paths: ['publisher.name', 'publisher', 'sourceOrganization.name'], meta: ['og:site_name', 'application-name'] },
  { names: ['language', 'lang', 'inlanguage', 'locale'], paths: ['inLanguage'], meta: ['lang', 'og:locale', 'content-language', 'language'] },
  { names: ['company', 'companyname', 'employer', 'hiringorganization', 'organization', 'hiringcompany', 'employername', 'organisation'], paths: ['hiringOrganization.name', 'hiringOrganization'], labels: ['company', 'employer'] },
  { names: ['salary', 'basesalary', 'pay', 'compensation', 'wage', 'salaryamount'], paths: ['baseSalary.value.value', 'baseSalary.value.minValue', 'baseSalary.value', 'estimatedSalary.value.value', 'baseSalary'], labels: ['salary', 'pay', 'compensation'], kinds: NUMERIC },
  { names: ['salarymin', 'minsalary', 'minimumsalary', 'salaryfrom', 'lowestsalary', 'salarylow', 'minpay'], paths: ['baseSalary.value.minValue', 'estimatedSalary.value.minValue'], kinds: NUMERIC },
  { names: ['salarymax', 'maxsalary', 'maximumsalary', 'salaryto', 'highestsalary', 'salaryhigh', 'maxpay'], paths: ['baseSalary.value.maxValue', 'estimatedSalary.value.maxValue'], kinds: NUMERIC },
  { names: ['salaryunit', 'salaryperiod', 'payperiod', 'unittext', 'payunit', 'salaryinterval'], paths: ['baseSalary.value.unitText', 'baseSalary.unitText'] },
  { names: ['employmenttype', 'jobtype', 'contracttype', 'worktype', 'schedule', 'employment'], paths: ['employmentType'], labels: ['employmenttype', 'jobtype', 'type', 'contract'] },
  { names: ['validthrough', 'deadline', 'applicationdeadline', 'closingdate', 'expires', 'expiresat', 'applyby', 'closes'], paths: ['validThrough'], labels: ['deadline', 'closingdate', 'applyby'] },
  { names: ['remote', 'isremote', 'remoteok', 'telecommute', 'remoteallowed', 'worklocationtype'], paths: ['jobLocationType'] },
  { names: ['skills', 'requiredskills', 'qualifications', 'requirements'], paths: ['skills', 'qualifications', 'experienceRequirements'] },
  { names: ['experience', 'experiencerequirements', 'requiredexperience', 'yearsofexperience'], paths: ['experienceRequirements', 'experienceRequirements.monthsOfExperience'] },
  { names: ['industry', 'sector'], paths: ['industry'], labels: ['industry', 'sector'] },
  { names: ['legalname', 'registeredname'], paths: ['legalName'], labels: ['legalname'] },
  { names: ['founded', 'foundingdate', 'foundedin', 'foundingyear', 'yearfounded', 'established', 'since', 'founddate', 'foundedyear'], paths: ['foundingDate'], labels: ['founded', 'established', 'foundingdate'] },
  { names: ['founder', 'founders', 'foundedby'], paths: ['founder.name', 'founder'], labels: ['founder', 'founders', 'foundedby'] },
  { names: ['employees', 'numberofemployees', 'employeecount', 'headcount', 'staff', 'companysize', 'numemployees'], paths: ['numberOfEmployees.value', 'numberOfEmployees.minValue', 'numberOfEmployees'], labels: ['employees', 'headcount', 'staff'] },
  { names: ['telephone', 'phone', 'phonenumber', 'tel', 'contactphone'], paths: ['telephone', 'contactPoint.telephone', 'address.telephone'], labels: ['phone', 'telephone', 'tel'] },
  { names: ['email', 'emailaddress', 'contactemail', 'mail'], paths: ['email', 'contactPoint.email'], labels: ['email'] },
  { names: ['logo', 'logourl'], paths: ['logo.url', 'logo.contentUrl', 'logo'] },
  { names: ['sameas', 'sociallinks', 'socialprofiles', 'profiles', 'social', 'socialmedia'], paths: ['sameAs'] },
  { names: ['slogan', 'tagline', 'motto'], paths: ['slogan'] },
  { names: ['weight'], paths: ['weight.value', 'weight'], labels: ['weight'] },
];

const BY_NAME = new Map<string, Concept[]>();
for (const c of CONCEPTS) for (const n of c.names) BY_NAME.set(n, [...(BY_NAME.get(n) ?? []), c]);

function fits(c: Concept, kind: SchemaKind, itemKind?: SchemaKind): boolean {
  if (!c.kinds) return true;
  return c.kinds.includes(kind) || (kind === 'array' && itemKind !== undefined && c.kinds.includes(itemKind) && !c.kinds.includes('array'));
}

export interface ConceptMatch {
  concept: Concept;
  /** How directly the property named it: 1 by name, less by part of the name or its description. */
  strength: number;
  how: 'name' | 'name part' | 'description';
}

/**
 * The concept a property stands for: by its whole name, else by a word of its name
 * (`listPrice` → price), else by its title or description ("Retail price in USD").
 */
export function conceptFor(name: string, kind: SchemaKind, itemKind: SchemaKind | undefined, describedAs: string[]): ConceptMatch | undefined {
  const pick = (key: string) => BY_NAME.get(key)?.find((c) => fits(c, kind, itemKind));
  const whole = pick(normalizeName(name));
  if (whole) return { concept: whole, strength: 1, how: 'name' };
  const words = nameWords(name);
  for (let i = words.length - 1; i >= 0; i--) {
    const part = pick(words[i]!);
    if (part) return { concept: part, strength: 0.85, how: 'name part' };
  }
  for (const text of describedAs) {
    const described = nameWords(text);
    for (let len = Math.min(3, described.length); len >= 1; len--) {
      for (let i = 0; i + len <= described.length; i++) {
        const c = pick(described.slice(i, i + len).join(''));
        if (c) return { concept: c, strength: 0.8, how: 'description' };
      }
    }
  }
  return undefined;
}

/** schema.org types a property name asks for when it names things (`products`, `jobs`). */
const TYPE_WORDS: Record<string, string[]> = {
  product: ['product', 'individualproduct', 'productmodel', 'productgroup'],
  item: ['product', 'listitem', 'thing'],
  offer: ['offer', 'aggregateoffer'],
  event: ['event'],
  concert: ['musicevent'],
  review: ['review'],
  job: ['jobposting'],
  jobposting: ['jobposting'],
  opening: ['jobposting'],
  vacancy: ['jobposting'],
  posting: ['jobposting'],
  position: ['jobposting'],
  article: ['article'],
  post: ['article', 'socialmediaposting'],
  story: ['article'],
  recipe: ['recipe'],
  organization: ['organization', 'corporation', 'localbusiness', 'ngo', 'educationalorganization'],
  company: ['organization', 'corporation', 'localbusiness'],
  business: ['localbusiness', 'organization'],
  person: ['person'],
  people: ['person'],
  member: ['person'],
  step: ['howtostep'],
  place: ['place'],
  venue: ['place'],
  location: ['place'],
  address: ['postaladdress'],
  question: ['question'],
  faq: ['question'],
  breadcrumb: ['listitem'],
  rating: ['aggregaterating', 'rating'],
};

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word === 'people') return word;
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/**
 * Whether an entity of these types is what a property of this name holds: `events` takes a
 * MusicEvent, `articles` a NewsArticle (schema.org subtypes end in their parent's name).
 */
export function typeFitsName(types: string[], propertyName: string): boolean {
  const words = nameWords(propertyName).map(singular);
  const wanted = new Set(words.flatMap((w) => TYPE_WORDS[w] ?? []));
  wanted.add(words.join(''));
  return types.some((t) => {
    const n = t.toLowerCase();
    return [...wanted].some((w) => n === w || (w.length >= 4 && n.endsWith(w)));
  });
}

/** Types that describe the page or site around the content rather than the content itself. */
export const FURNITURE_TYPES = new Set(['website', 'webpage', 'breadcrumblist', 'listitem', 'sitenavigationelement', 'imageobject', 'searchaction', 'wpheader', 'wpfooter', 'collectionpage', 'itempage', 'aboutpage', 'contactpage', 'readaction', 'entrypoint']);

export function normalizeLabel(label: string): string {
  return normalizeName(label.replace(/\([^)]*\)/g, ' ').replace(/[:#*]+/g, ' '));
}
