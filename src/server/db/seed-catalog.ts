import { doseTexts, offers, type Frequency } from '#shared/catalog.ts';

/** The catalogue of DESIGN §2, exactly: ids, names, prices in cents, frequencies, doses, images. */
export interface SeedLine {
  id: number;
  slug: string;
  name: string;
  summary: string;
  description: string;
  img: string;
  category: string;
  offers: {
    id: number;
    frequency: Frequency;
    priceCents: number;
    dose: string;
    quantity: boolean;
  }[];
}

const PRICES = { ONE_TIME: 2499, MONTHLY: 1750, QUARTERLY: 4500 } as const;

function standardOffers({
  oneTime,
  monthly,
  quarterly,
}: {
  oneTime: number;
  monthly: number;
  quarterly: number;
}): SeedLine['offers'] {
  return [
    {
      id: oneTime,
      frequency: 'ONE_TIME',
      priceCents: PRICES.ONE_TIME,
      dose: doseTexts.ONE_TIME,
      quantity: true,
    },
    {
      id: monthly,
      frequency: 'MONTHLY',
      priceCents: PRICES.MONTHLY,
      dose: doseTexts.MONTHLY,
      quantity: true,
    },
    {
      id: quarterly,
      frequency: 'QUARTERLY',
      priceCents: PRICES.QUARTERLY,
      dose: doseTexts.QUARTERLY,
      quantity: true,
    },
  ];
}

export const catalogSeed: SeedLine[] = [
  {
    id: 1,
    slug: 'sleep-gummies',
    name: 'Sleep Gummies',
    summary: 'Wind down together and wake up rested.',
    description:
      'A gentle, drug-free evening gummy with 3 mg of melatonin, L-theanine and chamomile to help you fall asleep sooner and stay asleep. Berry flavoured, vegan and free of gelatin. Take one gummy 30 minutes before bed.',
    img: '/images/supp-sleep.webp',
    category: 'supplements',
    offers: standardOffers(offers.sleep),
  },
  {
    id: 2,
    slug: 'biotin-gummies',
    name: 'Biotin Gummies',
    summary: 'Daily support for hair, skin and nails.',
    description:
      'Biotin with zinc and vitamins C and E to support healthy hair, skin and nails from the inside out. Peach flavoured, vegan and sweetened with fruit. Take two gummies a day with food.',
    img: '/images/supp-biotin.webp',
    category: 'supplements',
    offers: standardOffers(offers.biotin),
  },
  {
    id: 3,
    slug: 'immunity-gummies',
    name: 'Immunity Gummies',
    summary: 'Vitamin C, zinc and elderberry for every season.',
    description:
      'Elderberry, vitamin C, vitamin D3 and zinc to support a healthy immune system all year round. Citrus flavoured, vegan and free of artificial colours. Take two gummies a day.',
    img: '/images/supp-immunity.webp',
    category: 'supplements',
    offers: standardOffers(offers.immunity),
  },
  {
    id: 4,
    slug: 'holiday-bundle-special',
    name: 'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
    summary: 'All three of our gummies, one festive price.',
    description:
      'One bottle each of Sleep, Biotin (hair) and Immunity Gummies — our full routine for the two of you, at the price of one. A limited holiday offer, one-time purchase only.',
    img: '/images/supp-bundle.webp',
    category: 'supplements',
    offers: [
      {
        id: offers.bundle.oneTime,
        frequency: 'ONE_TIME',
        priceCents: 2499,
        dose: 'One bottle each',
        quantity: false,
      },
    ],
  },
];
