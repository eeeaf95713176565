/** The site configuration of spec §9: one place for the brand, shared by the page shell and emails. */
export const site = {
  brandId: 'pairwell',
  name: 'Pairwell',
  title: 'Pairwell — Health Clinic For Couples',
  tagline: 'Health Clinic For Couples',
  logo: '/images/logo-mark.svg',
  /** The home page's hero picture: its largest paint, so the server asks the browser to load it first. */
  heroImage: '/images/supp-bundle.webp',
  supportEmail: 'support@pairwell.example',
  supportPhone: '(555) 010-0199',
  /** The light-blue accent; the CSS theme carries the same value. */
  accentColor: '#3BA9E0',
} as const;
