/**
 * Copy for Pairwell's legal and help pages (Privacy Policy, Terms of Service,
 * Consent to Telehealth and FAQ). Content only: no rendering logic lives here.
 */

import {
  neverShared,
  PARTNER_INVITE_TTL_DAYS,
  sharingItems,
  sharingItemText,
} from '#shared/partners-privacy.ts';
import { site } from '#shared/site.ts';

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export interface StaticSection {
  heading: string;
  paragraphs: string[];
  list?: string[];
}

export interface StaticPage {
  title: string;
  /** Shown as "Last updated" — use '2026-11-01' */
  updated: string;
  intro: string;
  sections: StaticSection[];
}

export interface FaqEntry {
  question: string;
  answer: string[];
}

const SUPPORT_EMAIL = site.supportEmail;
const SUPPORT_PHONE = site.supportPhone;
const UPDATED = '2026-11-01';

/* -------------------------------------------------------------------------- */
/* Privacy Policy                                                             */
/* -------------------------------------------------------------------------- */

export const privacyPolicy: StaticPage = {
  title: 'Privacy Policy',
  updated: UPDATED,
  intro:
    'Your health is personal, and so is the information you share with us. This Privacy Policy explains what information Pairwell — Health Clinic For Couples ("Pairwell," "we," "us") collects when you use our website, member portal, online visits and shop, how we use it, who we share it with, and the choices and rights you have. We have tried to keep it plain and honest. If anything is unclear, please reach out — we are happy to explain.',
  sections: [
    {
      heading: 'Information we collect',
      paragraphs: [
        'We collect only the information we need to run our clinic and shop, to care for you safely, and to keep our service working well. Depending on how you use Pairwell, this may include:',
      ],
      list: [
        'Account information: your name, email address, phone number, date of birth, password (stored only in hashed form) and communication preferences.',
        'Order information: the products and programs you choose, shipping and billing addresses, order history, subscription frequency and status, and delivery and tracking details.',
        'Payment information: card payments are handled by our payment processor. Pairwell never sees or stores your full card number or security code. We keep only a payment token issued by the processor, the card brand, the last four digits and the expiry date, so we can show you which card is on file and charge it when you ask us to.',
        "Health information for online visits: your answers to the intake questionnaire for the ED, Sleep or Hair program, your medical history, medications and allergies, your telehealth consent, your provider's notes and decisions, any prescriptions, and the messages you exchange with your care team.",
        'Photo ID: the image of a government-issued photo ID you upload so your provider can confirm who you are and that you meet our age requirements. We strip embedded metadata (such as location and device details) from uploaded ID photos when we receive them.',
        'Device and usage information: basic technical details such as your browser type, device type, IP address, pages visited and the time of your visit, collected to keep the service secure, fix problems and understand how our checkout is used.',
        'Support communications: what you tell us when you email, call or message our support team.',
      ],
    },
    {
      heading: 'How we use your information',
      paragraphs: [
        'We use your information to provide the services you ask for and to operate Pairwell responsibly. We do not sell your personal information, and we never use your health information for advertising.',
      ],
      list: [
        'To create and secure your account and sign you in.',
        'To process, fulfil, ship and track your orders and manage your subscriptions, including skips, pauses, frequency changes, cancellations and reactivations.',
        'To let a licensed provider review your online visit, make a clinical decision, write a prescription when appropriate and communicate with you.',
        'To authorise your card at checkout and charge it only when a provider approves your visit or when your order or subscription is due.',
        'To verify your identity and eligibility, including your age and state of residence.',
        'To send you service messages, such as order confirmations, shipping updates, billing notices, visit updates and replies from your care team.',
        'To provide customer support and respond to your requests.',
        'To detect, prevent and investigate fraud, abuse and security incidents.',
        'To understand, in aggregate and without health information, how people use our shop and checkout so we can improve them.',
        'To meet our legal, regulatory, medical record-keeping and tax obligations.',
      ],
    },
    {
      heading: 'Health information and how we protect it',
      paragraphs: [
        "Online visits are provided by licensed providers through Pairwell's affiliated medical group. The affiliated medical group treats the health information you share during a visit — your questionnaire answers, photo ID, messages, provider notes and prescriptions — as protected health information and handles it in line with the safeguards required by the Health Insurance Portability and Accountability Act (HIPAA). Where Pairwell processes this information on the medical group's behalf, we apply the same protections.",
        'In practice, that means your health information is seen only by the members of your care team and the operations staff who need it to fulfil your visit or order, support you, or meet a legal requirement. Access is role-based, and every time a staff member views your health information, that access is recorded in an audit log that we review. Your health information is never used for marketing or advertising and is never sold.',
        'Health information about the gummies you buy from our shop (for example, that you ordered Sleep gummies) is treated as sensitive consumer health data and is protected in the same careful way.',
      ],
    },
    {
      heading: 'Who we share information with',
      paragraphs: [
        'We share information only with the people and companies who help us provide Pairwell, only as much as they need, and only under contracts that require them to protect it. These include:',
      ],
      list: [
        'Licensed providers and the affiliated medical group, who review your visit, make clinical decisions and care for you.',
        'Pharmacy and fulfilment partners, who dispense prescriptions, pack and ship your orders, and need your name, address, order details and, for prescriptions, the prescription itself.',
        'Our payment processor, which authorises and charges your card and helps us prevent fraud.',
        'Email and SMS delivery providers, which send service messages on our behalf. We keep health details out of these messages; they will tell you to sign in to read anything sensitive.',
        'Hosting, infrastructure and security providers, who store and protect our systems under strict confidentiality obligations.',
        'Legal and safety: when required by law, subpoena or court order; to protect the rights, safety or property of our patients, staff or the public; or in connection with a merger, acquisition or sale of assets, in which case this policy (or one at least as protective) will continue to apply to your information.',
      ],
    },
    {
      heading: 'Cookies',
      paragraphs: [
        'We use a single essential cookie to keep you signed in to your account. It is required for the member portal to work and is removed when your session ends or you sign out.',
        'We do not use advertising cookies, cross-site tracking cookies or third-party ad pixels, and we do not let advertisers track you on our site.',
        'If we ask, and only if you agree, Google Tag Manager and Google Analytics may set analytics cookies on our shop pages to count how the shop is used. They never run in your account, your online visits or our staff pages. You can change your answer at any time with "Cookie settings" at the foot of the shop pages; until you agree, none are set.',
      ],
    },
    {
      heading: 'Analytics',
      paragraphs: [
        'To understand how our shop and checkout are working, we record simple shop events, such as viewing a product, adding it to your cart, creating an account or completing a purchase. These events carry only product and price information (for example, product name, variant, quantity and price), and never your name, email address, phone number, address or card details. An online visit is counted only as started and submitted, without saying what it is for.',
        'Analytics events never contain health information: no questionnaire answers, no program details from your visit, no photo ID, no messages and no provider decisions.',
      ],
    },
    {
      heading: 'How long we keep information',
      paragraphs: [
        'We keep personal information only as long as we need it for the purposes described in this policy. Account and order information is kept while your account is open and for a reasonable period afterwards to handle returns, disputes, tax and accounting requirements.',
        'Medical records from online visits, including your questionnaire, provider notes and prescriptions, are kept for the period required by the medical record retention laws of the state where you received care, which is often seven years or longer. Once information is no longer needed, we delete it or de-identify it so it can no longer be linked to you.',
      ],
    },
    {
      heading: 'How we keep your information secure',
      paragraphs: [
        'We use administrative, technical and physical safeguards designed to protect your information, including encryption in transit and at rest, role-based access controls, audit logging of staff access to health information, hashed passwords, metadata stripping on uploaded ID photos and regular security reviews.',
        'No system can be made perfectly secure, so please help us by choosing a strong, unique password, keeping it private and signing out on shared devices. If we ever learn of a security incident that affects your information, we will notify you as required by law.',
      ],
    },
    {
      heading: 'Your rights and choices',
      paragraphs: ['Wherever you live in the United States, you can ask us to:'],
      list: [
        'Access: tell you what personal information we hold about you and give you a copy, including a copy of your medical record.',
        'Correct: fix information that is inaccurate or incomplete. You can update much of it yourself under Account in the member portal.',
        'Delete: delete your personal information, subject to information we must keep by law, such as medical records and transaction records.',
        'Opt out: stop receiving optional marketing messages at any time. Service messages about your orders, visits and account will continue while your account is active.',
      ],
    },
    {
      heading: 'State privacy rights',
      paragraphs: [
        'Some states give residents additional rights. California residents may have the right to know what personal information we collect, use and disclose; to request deletion or correction; to limit the use of sensitive personal information; and to opt out of the sale or sharing of personal information. We do not sell or share personal information for cross-context behavioural advertising, and we use sensitive information only to provide our services.',
        "Washington residents, and residents of other states with consumer health data laws such as Nevada, have rights under laws like Washington's My Health My Data Act. These include the right to know what consumer health data we collect and share, the right to withdraw consent, and the right to have that data deleted. We collect and share consumer health data only with your consent or as necessary to provide the product or service you have requested, and we never sell it.",
        'Residents of other states with comprehensive privacy laws (for example, Colorado, Connecticut, Virginia, Oregon and Texas) may have similar rights. To make any request, contact us using the details below. We will verify your identity before acting, respond within the time required by law, and will not discriminate against you for using your rights. You may use an authorised agent, and if we deny your request you may appeal by replying to our decision.',
      ],
    },
    {
      heading: 'Children',
      paragraphs: [
        'Our services are for adults 19 and over. We do not knowingly collect personal information from anyone under 19. If you believe a person under 19 has given us information, please contact us and we will delete it.',
      ],
    },
    {
      heading: 'Changes to this policy',
      paragraphs: [
        'We may update this Privacy Policy from time to time. When we do, we will change the "Last updated" date at the top of this page. If we make material changes, especially to how we use or share health information, we will tell you by email or in the member portal before the changes take effect and, where required, ask for your consent.',
      ],
    },
    {
      heading: 'Contact us',
      paragraphs: [
        `If you have questions about this policy or want to make a privacy request, email us at ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE}. Please include “Privacy request” in the subject line so we can route your message quickly.`,
      ],
    },
  ],
};

/* -------------------------------------------------------------------------- */
/* Terms of Service                                                           */
/* -------------------------------------------------------------------------- */

export const termsOfService: StaticPage = {
  title: 'Terms of Service',
  updated: UPDATED,
  intro:
    'Welcome to Pairwell — Health Clinic For Couples. These Terms of Service ("Terms") are an agreement between you and Pairwell ("Pairwell," "we," "us") and govern your use of our website, member portal, online visits, supplement shop and subscriptions (together, the "Services"). Please read them carefully. They include an agreement to resolve disputes through individual arbitration and a waiver of class actions, described in the Dispute resolution section.',
  sections: [
    {
      heading: 'Accepting these Terms',
      paragraphs: [
        'By creating an account, placing an order or starting an online visit, you agree to these Terms, our Privacy Policy and, for online visits, our Consent to Telehealth. If you do not agree, please do not use the Services.',
      ],
    },
    {
      heading: 'Eligibility',
      paragraphs: [
        'To use the Services you must be between 19 and 99 years old, able to form a binding contract, and live in a US state that our Services cover. Online visits are available only in states where a provider licensed in that state can care for you; the states we currently cover are shown during sign-up and at the start of each visit, and we may add or remove states over time.',
        'You must be physically located in your state of residence when you complete an online visit. We may ask you to confirm your identity, age and location, including by uploading a government-issued photo ID, and we may refuse or end service if we cannot verify them.',
      ],
    },
    {
      heading: 'Your account',
      paragraphs: [
        'You are responsible for giving us accurate, current and complete information and keeping it up to date. Keep your password secure and do not share your account; the account, its health information and any prescriptions are for you alone. Tell us right away at ' +
          SUPPORT_EMAIL +
          ' if you believe someone else has accessed your account. You are responsible for activity under your account unless it results from our failure to protect it.',
      ],
    },
    {
      heading: 'Telehealth services',
      paragraphs: [
        "Online visits are provided by independent licensed providers through Pairwell's affiliated medical group. Pairwell provides the technology, support and administrative services; it does not practise medicine, and it does not interfere with your provider's clinical judgement.",
        'Your visit is reviewed asynchronously: you complete an intake questionnaire, upload a photo ID and consent to telehealth, and a provider licensed in your state reviews your information, may message you with questions, and then decides whether treatment is appropriate. Submitting a visit does not guarantee a prescription. Your provider may decline to treat you, recommend a different treatment or refer you for in-person care, based solely on their professional judgement.',
        'The Services are not for emergencies. If you think you are having a medical emergency, call 911 or go to the nearest emergency room right away. Pairwell does not replace your primary care provider, and we encourage you to keep them informed about any treatment you receive.',
      ],
    },
    {
      heading: 'Prescriptions and pharmacy',
      paragraphs: [
        'If your provider approves treatment, they will issue a prescription that is filled by a licensed partner pharmacy and shipped to you. You can ask us to send your prescription to a different pharmacy of your choice instead. Prescriptions are written for you only; never share your medication with anyone else, including your partner.',
        'Prescription medications generally cannot be returned once dispensed, as required by pharmacy law. Refills and renewals may require a follow-up check-in with your provider, and your provider may change or stop a prescription if that is medically appropriate.',
      ],
    },
    {
      heading: 'Supplements',
      paragraphs: [
        'Our Sleep, Biotin and Immunity gummies and our Holiday Bundle are dietary supplements sold without a prescription. These statements have not been evaluated by the Food and Drug Administration. These products are not intended to diagnose, treat, cure or prevent any disease.',
        'Read each label before use, follow the directions, and talk to a healthcare professional before taking supplements if you are pregnant or nursing, take medication, or have a medical condition. Keep supplements out of reach of children.',
      ],
    },
    {
      heading: 'Orders, pricing and shipping',
      paragraphs: [
        'All prices are in US dollars and are shown at checkout, together with any applicable tax and shipping charges, before you place your order. We may change prices at any time, but a change will not affect an order you have already placed. If a product is listed at an incorrect price because of an error, we may cancel the order and refund any amount charged.',
        'We ship to addresses within the states we serve. Delivery times shown at checkout are estimates and not guarantees. Title and risk of loss pass to you when we hand your order to the carrier, but if your package is lost or arrives damaged, contact us and we will make it right.',
      ],
    },
    {
      heading: 'Subscriptions and automatic renewal',
      paragraphs: [
        'You may buy our gummies once, or subscribe to receive them monthly or quarterly. Subscriptions are currently billed at $17.50 per month for a monthly plan or $45.00 per quarter for a quarterly plan, plus any applicable tax and shipping, unless a different price is shown at checkout.',
        'By choosing a subscription, you authorise us to charge your card on file automatically at the start of each billing period until you cancel. Your subscription renews automatically, and the next billing date is always shown on the Subscriptions page of your account. We will remind you before renewal where required by law, and we will tell you in advance about any price change, giving you the chance to cancel.',
        'You can cancel any time before your next billing date from the Subscriptions page, with no cancellation fee, and cancellation takes effect before the next charge. You can also skip a delivery, pause your subscription, change its frequency or reactivate a cancelled subscription from the same page. If you need help, contact us at ' +
          SUPPORT_EMAIL +
          ' or ' +
          SUPPORT_PHONE +
          '.',
      ],
    },
    {
      heading: 'Payment authorisation',
      paragraphs: [
        'Payments are processed by our third-party payment processor. You authorise us and our processor to charge your card for your orders, visits and subscriptions, including applicable tax and shipping.',
        'For online visits, your card is authorised at checkout and charged only if a licensed provider approves your visit. If your provider declines, we do not charge your card and we release the authorisation; depending on your bank, the pending hold may take a few business days to disappear.',
        'If a payment fails, we will let you know and may retry the charge. We may pause or cancel an order or subscription if payment cannot be completed. You can update your card at any time in your account.',
      ],
    },
    {
      heading: 'Refunds and returns',
      paragraphs: [
        'Supplements: unopened supplements can be returned within 30 days of delivery for a refund of the product price. For health and safety reasons, we cannot accept returns of opened products, but if something is wrong with your order, contact us and we will make it right.',
        'Online visits and prescriptions: you are not charged for a visit that your provider declines. Once a prescription has been dispensed, it cannot be returned or refunded, except where required by law or where the error was ours.',
        'Damaged, incorrect or missing items: let us know within 14 days of the expected delivery date and we will replace the item or refund you. Approved refunds go back to your original payment method, typically within 5 to 10 business days.',
      ],
    },
    {
      heading: 'Acceptable use',
      paragraphs: ['When using the Services, you agree not to:'],
      list: [
        'Give false, misleading or incomplete information, including about your identity, age, location or health.',
        "Use someone else's account, identity or photo ID, or create an account for someone else.",
        'Resell, share or give away prescription medication.',
        'Harass, threaten or abuse providers, staff or other people.',
        'Interfere with, disrupt, probe or attempt to gain unauthorised access to the Services or their security.',
        'Use bots, scrapers or other automated tools to access the Services without our written permission.',
        'Use the Services for any unlawful purpose or in violation of these Terms.',
      ],
    },
    {
      heading: 'Intellectual property',
      paragraphs: [
        'The Services, including the Pairwell name and logo, text, graphics, product designs, software and content, belong to Pairwell or its licensors and are protected by intellectual property laws. We give you a limited, personal, non-transferable licence to use the Services for their intended purpose. You may not copy, modify, distribute or create derivative works from them without our written permission.',
      ],
    },
    {
      heading: 'Disclaimers',
      paragraphs: [
        'Educational content on our website is for general information only and is not medical advice. Medical advice is given only by your provider during a visit.',
        'Except as expressly stated in these Terms and to the fullest extent permitted by law, the Services are provided "as is" and "as available," without warranties of any kind, whether express or implied, including warranties of merchantability, fitness for a particular purpose and non-infringement. We do not guarantee any particular result from any treatment or product, or that the Services will be uninterrupted or error-free.',
      ],
    },
    {
      heading: 'Limitation of liability',
      paragraphs: [
        'To the fullest extent permitted by law, Pairwell and its affiliates, officers, employees and partners will not be liable for any indirect, incidental, special, consequential or punitive damages, or for lost profits or data, arising out of or related to your use of the Services. Our total liability for any claim arising out of or related to these Terms or the Services is limited to the greater of the amount you paid us in the 12 months before the claim arose or $100.',
        'Some states do not allow the exclusion or limitation of certain damages, so some of these limits may not apply to you. Nothing in these Terms limits liability that cannot be limited by law, or the professional responsibility of a provider for the medical care they provide.',
      ],
    },
    {
      heading: 'Dispute resolution and governing law',
      paragraphs: [
        `These Terms are governed by the laws of the State of Delaware, without regard to its conflict-of-law rules, except where the law of your state of residence applies and cannot be waived. If you have a concern, please contact us first at ${SUPPORT_EMAIL}; most problems can be solved quickly and informally.`,
        'If we cannot resolve a dispute within 60 days, you and Pairwell agree to resolve it through final and binding individual arbitration administered by the American Arbitration Association under its Consumer Arbitration Rules, rather than in court, except that either of us may bring an individual claim in small claims court. You and Pairwell each waive the right to a jury trial and to take part in a class action or class-wide arbitration. You may opt out of this arbitration agreement by emailing us within 30 days of first accepting these Terms.',
      ],
    },
    {
      heading: 'Changes to these Terms',
      paragraphs: [
        'We may update these Terms from time to time. We will post the new version on this page with a new "Last updated" date and, for material changes, notify you by email or in the member portal before they take effect. If you keep using the Services after the changes take effect, you accept the updated Terms. Changes will not apply to disputes that arose before they took effect.',
      ],
    },
    {
      heading: 'Contact us',
      paragraphs: [
        `Questions about these Terms? Email ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE}. We are here to help.`,
      ],
    },
  ],
};

/* -------------------------------------------------------------------------- */
/* Consent to Telehealth                                                      */
/* -------------------------------------------------------------------------- */

export const consentToTelehealth: StaticPage = {
  title: 'Consent to Telehealth',
  updated: UPDATED,
  intro:
    'Before a provider can review your online visit, we need your informed consent to receive care through telehealth. Please read this page carefully. It explains how Pairwell online visits work, what they can and cannot do, and what we ask of you. If you have questions, contact us or ask your provider through Messages before you agree.',
  sections: [
    {
      heading: 'What telehealth is',
      paragraphs: [
        "Telehealth means receiving healthcare using technology instead of seeing a provider in person. At Pairwell, telehealth is used to assess and, where appropriate, treat patients in our ED, Sleep and Hair programs. Your care is provided by licensed providers through Pairwell's affiliated medical group.",
      ],
    },
    {
      heading: 'How your online visit works',
      paragraphs: [
        'Pairwell online visits are asynchronous, which means your provider reviews your information at a different time from when you submit it, rather than in a live video call. You complete an intake questionnaire about your health, upload a government-issued photo ID and agree to this consent. A provider licensed in the state where you live then reviews your information.',
        "Your provider may message you in the member portal with follow-up questions, or may ask for a live phone or video call if they need more information. They will then approve treatment and issue a prescription, recommend something different, or decline to treat you through telehealth. We email you when your provider has decided; the decision is shown with your visit's order on the Orders page of your account, and your provider's questions and instructions arrive in Messages.",
      ],
    },
    {
      heading: 'Benefits',
      paragraphs: ['Telehealth can offer:'],
      list: [
        'Convenient access to care from home, on your own schedule, without travel or waiting rooms.',
        'Privacy when discussing sensitive topics such as sexual health, sleep and hair loss.',
        'Ongoing contact with your care team through secure messaging.',
        'Treatment delivered to your door when it is appropriate.',
      ],
    },
    {
      heading: 'Risks and limitations',
      paragraphs: [
        'Like any form of healthcare, telehealth has risks and limits. By consenting, you understand that:',
      ],
      list: [
        'Your provider cannot physically examine you, and relies on the information you provide. If that information is incomplete or inaccurate, your provider may not have enough information to make a sound decision, which could lead to errors in diagnosis or treatment, or to side effects or drug interactions.',
        'Technology can fail. Delays, interruptions or errors in transmitting your information may occur, and in rare cases, despite our safeguards, a security failure could expose your information.',
        'Your provider may decide that telehealth is not right for you and decline to treat you or to prescribe the treatment you requested.',
        'Some conditions need an in-person examination, laboratory tests or specialist care, and your provider may recommend that you see a clinician in person.',
        'Telehealth is not suitable for emergencies or urgent care.',
      ],
    },
    {
      heading: 'Your responsibilities',
      paragraphs: ['To keep your care safe, you agree to:'],
      list: [
        'Answer every question truthfully and completely, including your full medical history, all medications and supplements you take, and any allergies.',
        'Complete the visit yourself, using your own identity and photo ID, while located in the state where you live.',
        'Read the medication information and instructions your provider and pharmacy give you before starting treatment, and take your medication only as prescribed.',
        'Tell your provider promptly through Messages about any side effects, changes in your health or new medications.',
        'Keep your primary care provider informed and get regular in-person check-ups.',
        'Call 911 or go to the nearest emergency room if you have a medical emergency, such as chest pain, trouble breathing, fainting or an erection lasting more than four hours. Do not use Messages for emergencies.',
      ],
    },
    {
      heading: 'Privacy of your information',
      paragraphs: [
        "Pairwell's affiliated medical group treats your questionnaire answers, photo ID, messages, provider notes and prescriptions as protected health information. Your information is shared only with your care team, the pharmacy filling your prescription and the operations staff who need it, and every staff view of your health information is recorded in an audit log. Metadata is stripped from uploaded ID photos.",
        'Your information is stored and sent using encrypted systems. Please protect your own privacy too: use a private device and network where you can, and keep your account password secure. Read our Privacy Policy for full details.',
      ],
    },
    {
      heading: 'Prescriptions',
      paragraphs: [
        'If your provider prescribes medication, the prescription is based on their independent clinical judgement and the information you gave. It will be filled by a licensed partner pharmacy unless you ask for it to be sent to a pharmacy of your choice. Your card is authorised at checkout and charged only if your provider approves your visit; if your provider declines, you are not charged and the authorisation is released.',
        'Prescriptions may be limited in quantity or duration, and continuing treatment may require follow-up questions or a new review by your provider.',
      ],
    },
    {
      heading: 'Your right to withdraw consent and seek in-person care',
      paragraphs: [
        `Receiving care through telehealth is your choice. You may withdraw this consent at any time by contacting us at ${SUPPORT_EMAIL} or ${SUPPORT_PHONE}, or by messaging your care team. Withdrawing consent will not affect care you have already received, but it will end further telehealth care through Pairwell. You always have the right to seek care in person from a provider of your choice instead.`,
      ],
    },
    {
      heading: 'Your acknowledgement',
      paragraphs: [
        'By checking the consent box when you start your online visit, you confirm that:',
      ],
      list: [
        'You have read and understood this Consent to Telehealth, and you have had the chance to ask questions.',
        'You are between 19 and 99 years old and live in, and are currently located in, a state that Pairwell covers.',
        'The information you provide is true, accurate and complete, and you will update your provider if it changes.',
        'You understand that your visit will be reviewed asynchronously by a provider licensed in your state and that a prescription is not guaranteed.',
        'You understand the benefits, risks and limitations of telehealth, including that your provider may decline to treat you or recommend in-person care.',
        'You understand that telehealth is not for emergencies and that you will call 911 in an emergency.',
        'You will read your medication information, take any medication only as prescribed, and report side effects to your provider.',
        'You consent to receive care through telehealth and understand that you may withdraw this consent at any time.',
      ],
    },
  ],
};

/* -------------------------------------------------------------------------- */
/* Frequently Asked Questions                                                 */
/* -------------------------------------------------------------------------- */

export const faq: {
  title: string;
  updated: string;
  intro: string;
  groups: { heading: string; entries: FaqEntry[] }[];
} = {
  title: 'Frequently Asked Questions',
  updated: UPDATED,
  intro: `Quick answers to the questions we hear most. Can't find what you're looking for? Email ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE} and a real person will help.`,
  groups: [
    {
      heading: 'Getting started',
      entries: [
        {
          question: 'Who is Pairwell for?',
          answer: [
            'Pairwell is an online health clinic for couples and for individuals who want simple, private care from home. We offer online visits with licensed providers for erectile dysfunction (ED), sleep and hair loss, and a shop of supplement gummies — Sleep, Biotin and Immunity gummies, plus our Holiday Bundle — that you can buy once or by subscription.',
          ],
        },
        {
          question: 'How old do I need to be?',
          answer: [
            'You must be between 19 and 99 years old to create an account, shop with us or start an online visit. We confirm your age using the photo ID you upload during your visit.',
          ],
        },
        {
          question: 'Which states do you serve?',
          answer: [
            "Online visits are available in states where we have providers licensed to care for you. You will see whether your state is covered when you enter your address during sign-up or at the start of a visit. We are adding states over time, so if yours isn't covered yet, please check back.",
          ],
        },
      ],
    },
    {
      heading: 'Online visits',
      entries: [
        {
          question: 'How does an online visit work?',
          answer: [
            'Choose a program (ED, Sleep or Hair), answer a short intake questionnaire about your health, upload a photo ID, agree to our Consent to Telehealth and check out. A provider licensed in your state then reviews your answers, may message you with questions, and either approves treatment with a prescription or lets you know that another option would be better for you.',
            'There is no live video call needed for most visits — you can complete everything on your own schedule.',
          ],
        },
        {
          question: 'How long does a provider review take?',
          answer: [
            'Most visits are reviewed within one business day. If your provider needs more information, they will message you, and the review continues once you reply. We will email you when there is an update to read in your account.',
          ],
        },
        {
          question: 'What happens if my visit is declined?',
          answer: [
            'Your card is not charged. We authorise your card at checkout but only charge it if a provider approves your visit. If your visit is declined, the authorisation is released; depending on your bank, the pending hold can take a few business days to disappear from your statement.',
            'Your provider will explain their decision in Messages and, where appropriate, suggest next steps such as seeing a clinician in person.',
          ],
        },
        {
          question: 'How do I message my provider?',
          answer: [
            'Sign in and open Messages in your account. You can ask questions, reply to your provider and report side effects there. Messages are not monitored for emergencies — if you have a medical emergency, call 911.',
          ],
        },
      ],
    },
    {
      heading: 'Orders & shipping',
      entries: [
        {
          question: 'How long does shipping take?',
          answer: [
            'Supplement orders usually ship within 1 to 2 business days and arrive 3 to 5 business days after that. Prescription orders ship after your provider approves your visit and the pharmacy fills your prescription.',
          ],
        },
        {
          question: 'How do I track my order?',
          answer: [
            "Go to the Orders page in your account and select your order. Once it has shipped, you will see a tracking link that shows where your package is. We'll also email you the tracking details when your order ships.",
          ],
        },
        {
          question: 'Can I change my shipping address?',
          answer: [
            "Yes. You can add and edit addresses under Addresses in your account. If an order has already been placed, contact us as soon as possible and we'll do our best to update it before it ships.",
          ],
        },
        {
          question: 'What if my order arrives damaged or something is missing?',
          answer: [
            `We're sorry! Email ${SUPPORT_EMAIL} within 14 days of the expected delivery date with your order number and, if you can, a photo, and we'll send a replacement or refund you.`,
          ],
        },
      ],
    },
    {
      heading: 'Subscriptions & billing',
      entries: [
        {
          question: 'How do I change, skip, pause or cancel my subscription?',
          answer: [
            'Sign in and open the Subscriptions page. From there you can change how often you receive your order (monthly or quarterly), skip your next delivery, pause your subscription, cancel it or reactivate it later. There are no cancellation fees.',
            'To avoid being charged for your next order, make changes before your next billing date, which is shown on the Subscriptions page.',
          ],
        },
        {
          question: 'How much does a subscription cost?',
          answer: [
            'Gummy subscriptions are $17.50 per month on a monthly plan or $45.00 per quarter on a quarterly plan, plus any applicable tax and shipping, unless a different price is shown at checkout. Your card is charged automatically at the start of each billing period until you cancel.',
          ],
        },
        {
          question: 'How do I update my payment card?',
          answer: [
            'Go to Accounts → Payment method in your account and add your new card. Your new card will be used for your next order and subscription renewal. For your security, we only ever store a token from our payment processor along with the card brand, last four digits and expiry date — never your full card number.',
          ],
        },
        {
          question: 'What happens if a payment fails?',
          answer: [
            "We'll email you and try the charge again over the next few days. To keep your order or subscription on track, update your card under Accounts → Payment method. If payment still can't be completed, your order may be put on hold until your payment details are updated. Your subscription settings are kept, so you can pick up where you left off.",
          ],
        },
      ],
    },
    {
      heading: 'Privacy & security',
      entries: [
        {
          question: 'How do you protect my health information?',
          answer: [
            'Your questionnaire answers, photo ID and messages are treated as protected health information by our affiliated medical group. They are encrypted, seen only by your care team and the operations staff who need them, and every staff view is recorded in an audit log. We strip metadata from uploaded ID photos, and we never use your health information for advertising or sell it.',
            'We use a sign-in cookie, and analytics cookies on our shop pages only if you allow them — never advertising cookies. Our shop analytics carry product and price information only, never health information. Read our Privacy Policy for the full details.',
          ],
        },
        {
          question: 'What can my partner see if we link our accounts?',
          answer: [
            `Only what you choose, item by item, and nothing until you do. You can share: ${sharingItems.map((item) => `${sharingItemText[item].label.toLowerCase()} (${lowerFirst(sharingItemText[item].means)})`).join('; ')}. Each is a separate switch on your Partner page under Accounts, and you can turn it off at any time.`,
            `Your partner never sees these, and no setting can change that: ${neverShared.map(lowerFirst).join('; ')}.`,
            `To link, invite your partner by email from Accounts; they accept from their own account (an invitation lasts ${PARTNER_INVITE_TTL_DAYS} days). Either of you can unlink at any time, and choose not to notify the other. Sharing ends at once, and a new link starts with nothing shared.`,
          ],
        },
        {
          question: 'I forgot my password. How do I reset it?',
          answer: [
            "On the sign-in page, select Forgot password and enter the email address on your account. We'll send you a link to choose a new password. The link expires after a short time for your security, so use it promptly. If the email doesn't arrive within a few minutes, check your spam folder or contact us.",
          ],
        },
        {
          question: 'Why do you need my photo ID?',
          answer: [
            "Your provider needs to confirm who you are and that you are at least 19 before treating you — it's part of practising medicine safely. Your ID is stored securely, its metadata is removed when you upload it, and it is seen only by the people who need to verify it.",
          ],
        },
        {
          question: 'How do I contact support?',
          answer: [
            `Email ${SUPPORT_EMAIL} or call ${SUPPORT_PHONE}. For questions about your treatment, message your provider through Messages in your account. In a medical emergency, always call 911.`,
          ],
        },
      ],
    },
  ],
};
