import { stateName, type UsStateCode } from './us-states.ts';

/*
 * Which states a ZIP code can be in, by its first three digits (its "ZIP3" prefix, which names
 * the sectional center facility that sorts it). Source: the USPS's ZIP3 prefix assignments as
 * listed in "List of ZIP Code prefixes" (Wikipedia, after USPS Publication 65 / the L002 label
 * list), with the prefixes whose delivery area crosses a state line taken from USPS five-digit
 * ZIP data (a ZIP delivered in two states is accepted in both).
 *
 * The rule this table serves is to catch a slip (10001 with California), never to turn a real
 * customer away: a prefix it does not name (unassigned, a territory, a military post office) is
 * accepted with any state.
 */

/** [first prefix, last prefix, state]: the USPS's ranges, in prefix order. */
const ranges: readonly (readonly [number, number, UsStateCode])[] = [
  [5, 5, 'NY'], // 005: Holtsville, NY (IRS)
  // 006-009: Puerto Rico and the Virgin Islands, not in the product's states.
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'], // 055: Andover, MA (IRS)
  [56, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  // 090-099: Armed Forces Europe (AE).
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'], // 201: Dulles, VA
  [202, 205, 'DC'], // 202-205: Washington, DC (government)
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 339, 'FL'],
  // 340: Armed Forces Americas (AA).
  [341, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'], // 398-399: Albany, GA and Atlanta, GA (IRS)
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'], // 569: Washington, DC (parcel return)
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 714, 'LA'],
  [716, 729, 'AR'],
  [730, 731, 'OK'],
  [733, 733, 'TX'], // 733: Austin, TX (IRS)
  [734, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'], // 885: El Paso, TX
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  // 962-966: Armed Forces Pacific (AP).
  [967, 968, 'HI'],
  // 969: Guam, the Northern Mariana Islands, Palau and the Marshall Islands.
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/**
 * Prefixes that also deliver across a state line: a town served from a post office in the next
 * state, or a ZIP whose area straddles the line. From the Census Bureau's ZCTA-to-county
 * relationship file (a ZIP area lying partly in another state) and USPS five-digit ZIP data.
 */
const alsoIn: readonly (readonly [number, readonly UsStateCode[]])[] = [
  [63, ['NY']], // 06390 Fishers Island, NY (from New London, CT)
  [201, ['WV']], // 20135 Bluemont, VA reaches Jefferson County, WV
  [205, ['MD', 'VA']], // 20588 and 20598: federal agencies outside the District
  [246, ['WV']], // 24604 Bishop, VA and WV
  [422, ['TN']], // 42223 Fort Campbell, KY and TN
  [426, ['TN']], // 42602 Albany, KY reaches Pickett County, TN
  [510, ['SD']], // 51001 Akron and 51023 Hawarden, IA reach Union County, SD
  [513, ['MN']], // 51360 Spirit Lake, IA reaches Jackson County, MN
  [515, ['NE']], // 51557 Little Sioux, IA reaches Burt County, NE
  [516, ['MO']], // 51640 Hamburg, IA reaches Atchison County, MO
  [525, ['MO']], // 52542 Cantril and 52573 Mount Sterling, IA reach Scotland County, MO
  [526, ['MO']], // 52626 Farmington, IA reaches Clark County, MO
  [561, ['SD']], // 56144 Jasper and 56164 Pipestone, MN reach Moody County, SD
  [562, ['SD']], // 56219 Browns Valley, MN reaches Roberts County, SD
  [567, ['ND']], // 56744 Oslo, MN reaches Walsh County, ND
  [577, ['WY']], // 57717 Belle Fourche, SD reaches Crook County, WY
  [584, ['SD']], // 58439 Forbes, ND reaches McPherson County, SD
  [586, ['SD']], // 58623 Bowman, 58649 Reeder, 58653 Scranton, ND reach Harding County, SD
  [592, ['ND']], // 59221 Fairview, 59270 Sidney, 59275 Westby, MT reach North Dakota
  [665, ['NE']], // 66541 Summerfield, KS reaches Pawnee County, NE
  [679, ['OK']], // 67950 Elkhart, KS reaches Texas County, OK
  [687, ['SD']], // 68719 Bristow, NE reaches Gregory County, SD
  [692, ['SD']], // 69201 Valentine and nearby, NE reach Todd County, SD
  [717, ['LA']], // 71749 Junction City, AR and LA
  [723, ['TN']], // 72338 Frenchmans Bayou, AR reaches Tipton County, TN
  [726, ['MO']], // 72644 Lead Hill, AR reaches Taney County, MO
  [739, ['TX']], // 73949 and 73960 Texhoma, OK and TX
  [807, ['NE']], // 80758 Wray, CO reaches Dundy County, NE
  [811, ['NM']], // 81137 Ignacio, CO reaches San Juan County, NM
  [813, ['UT']], // 81324 Dove Creek, CO reaches San Juan County, UT
  [833, ['UT']], // 83312 Almo and 83342 Malta, ID reach Box Elder County, UT
  [834, ['WY']], // 83414 Alta, WY (from Idaho Falls, ID)
  [860, ['UT']], // 86044 Tonalea, AZ reaches San Juan County, UT
  [865, ['NM', 'UT']], // 86504 Fort Defiance, 86515 Window Rock, 86514 Teec Nos Pos, AZ
  [880, ['TX']], // 88063 Sunland Park, NM reaches El Paso County, TX
  [882, ['TX']], // 88220 Carlsbad, NM reaches Culberson County, TX
  [884, ['TX']], // 88430 Nara Visa, NM reaches Oldham County, TX
  [894, ['OR']], // 89421 McDermitt, NV and OR
];

const statesByPrefix = new Map<number, Set<UsStateCode>>();
for (const [first, last, state] of ranges)
  for (let prefix = first; prefix <= last; prefix++)
    statesByPrefix.set(prefix, new Set([...(statesByPrefix.get(prefix) ?? []), state]));
for (const [prefix, states] of alsoIn)
  statesByPrefix.set(prefix, new Set([...(statesByPrefix.get(prefix) ?? []), ...states]));

/**
 * The states a five-digit ZIP can be in, or null when its prefix is one the table does not name
 * (then any state is accepted).
 */
export function statesOfZip(zip: string): ReadonlySet<UsStateCode> | null {
  if (!/^\d{5}$/.test(zip)) return null;
  return statesByPrefix.get(Number(zip.slice(0, 3))) ?? null;
}

/** Whether a ZIP can be in `state`: true for a prefix the table does not name. */
export function zipMatchesState(zip: string, state: string): boolean {
  const states = statesOfZip(zip);
  return states === null || (states as ReadonlySet<string>).has(state);
}

/** The message under the ZIP field when it cannot be in the chosen state. */
export function zipNotInState(state: string): string {
  return `This ZIP code isn't in ${stateName(state)}.`;
}
