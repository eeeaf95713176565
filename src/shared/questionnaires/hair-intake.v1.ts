import type { AnswerOption, Questionnaire } from './format.ts';

/**
 * Hair (pattern hair loss) intake, version 1.0.0. Separates pattern hair loss from hair loss that
 * needs an in-person exam (sudden, patchy, scarring or with scalp symptoms), screens for pregnancy
 * and the finasteride exposure warnings, and gives the provider what oral minoxidil and finasteride
 * need (blood pressure and heart, depression, PSA and prostate history, past treatments).
 *
 * Released versions are never edited: change the content in a new file (hair-intake.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

const PREGNANCY_REASON =
  "Hair-loss medicines — finasteride, and minoxidil tablets or solution — aren't safe during pregnancy, while breastfeeding, or when you're trying to become pregnant, because they can affect a baby's development. Please talk with your OB-GYN or a dermatologist in person: hair shedding around pregnancy is common, and they can advise you on safe options.";

const SCALP_REASON =
  'Redness, pain, sores, or smooth shiny patches where hair has gone can be signs of a scalp infection or of an inflammatory or scarring type of hair loss. A dermatologist needs to examine your scalp soon, because early treatment can prevent permanent hair loss. Please see a dermatologist in person.';

export const hairIntakeV1: Questionnaire = {
  id: 'hair-intake',
  version: '1.0.0',
  category: 'hair',
  title: 'Hair loss visit',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome to your Hair visit. We'll ask about your hair loss, your health and the medicines you take. A licensed provider reads every answer before deciding whether a treatment such as finasteride or minoxidil is right for you, and may ask you for photos of your scalp.",
    },
    {
      linkId: 'sex_at_birth',
      type: 'choice',
      text: 'What sex were you assigned at birth?',
      helpText:
        "Hair-loss medicines work and are used differently depending on your body, and some aren't safe in pregnancy. You can tell your provider more, including your gender identity, in your messages.",
      options: [
        { code: 'female', display: 'Female' },
        { code: 'male', display: 'Male' },
      ],
    },
    {
      linkId: 'pregnancy',
      type: 'multi-choice',
      text: 'Do any of these apply to you?',
      enableWhen: [{ question: 'sex_at_birth', operator: '=', answer: 'female' }],
      options: [
        { code: 'pregnant', display: "I'm pregnant", disqualify: PREGNANCY_REASON },
        { code: 'may-be-pregnant', display: 'I might be pregnant', disqualify: PREGNANCY_REASON },
        {
          code: 'breastfeeding',
          display: "I'm breastfeeding or chestfeeding",
          disqualify: PREGNANCY_REASON,
        },
        {
          code: 'planning',
          display: "I'm trying to become pregnant, or plan to in the next 12 months",
          disqualify: PREGNANCY_REASON,
        },
        none,
      ],
    },
    {
      linkId: 'pregnancy_potential',
      type: 'choice',
      text: 'Which best describes you?',
      enableWhen: [{ question: 'sex_at_birth', operator: '=', answer: 'female' }],
      options: [
        {
          code: 'could-become-pregnant',
          display: 'I could become pregnant',
          flag: {
            code: 'childbearing-potential',
            severity: 'caution',
            text: 'Could become pregnant: finasteride and dutasteride are contraindicated (risk to a male fetus); oral minoxidil only with reliable contraception; topical minoxidil preferred.',
          },
        },
        {
          code: 'post-menopause',
          display: "I've gone through menopause",
          flag: {
            code: 'postmenopausal',
            severity: 'info',
            text: 'Postmenopausal: finasteride is off-label in women and may be considered by the provider.',
          },
        },
        {
          code: 'cannot-become-pregnant',
          display: "I can't become pregnant for another reason (for example, a hysterectomy)",
        },
      ],
    },
    {
      linkId: 'household_pregnancy',
      type: 'boolean',
      text: 'Does anyone who is pregnant, or who could become pregnant, live with you or might handle your medicine?',
      helpText:
        'Finasteride tablets are coated. Anyone who is or could become pregnant should not touch crushed or broken tablets, because the medicine can pass through the skin and affect the development of a male baby.',
      enableWhen: [{ question: 'sex_at_birth', operator: '=', answer: 'male' }],
      flagWhen: {
        answer: true,
        flag: {
          code: 'household-pregnancy-exposure',
          severity: 'info',
          text: "Someone at home is or could become pregnant: counsel that they must not handle crushed or broken finasteride tablets; don't split tablets; store safely.",
        },
      },
    },
    // Your hair loss
    {
      linkId: 'hair_intro',
      type: 'display',
      text: 'Now some questions about your hair. Hair loss that starts suddenly, comes out in patches, or comes with scalp symptoms usually has a different cause than pattern hair loss, and is best checked in person.',
    },
    {
      linkId: 'loss_pattern',
      type: 'choice',
      text: 'Where are you losing hair?',
      helpText: 'Choose the one that fits best.',
      options: [
        { code: 'hairline', display: 'A receding hairline at the front or temples' },
        { code: 'crown', display: 'Thinning at the crown (the top back of your head)' },
        { code: 'hairline-and-crown', display: 'Both the hairline and the crown' },
        { code: 'part-top', display: 'A widening part, or thinning across the top of your head' },
        {
          code: 'all-over',
          display: 'Thinning all over, including the sides and back',
          flag: {
            code: 'diffuse-loss',
            severity: 'caution',
            text: 'Diffuse loss including the sides and back: not typical of pattern hair loss; consider telogen effluvium, thyroid disease, iron deficiency or diffuse alopecia areata.',
          },
        },
        {
          code: 'patches',
          display: 'Round or patchy bald spots',
          disqualify:
            'Round or patchy bald spots usually have a different cause than pattern hair loss, such as alopecia areata or a scalp infection, and need a dermatologist to examine your scalp. Please see a dermatologist in person — these conditions can be treated.',
        },
      ],
    },
    {
      linkId: 'onset_age',
      type: 'integer',
      text: 'About how old were you when you first noticed your hair loss?',
      unit: 'years',
      min: 1,
      max: 99,
    },
    {
      linkId: 'loss_duration',
      type: 'choice',
      text: 'How long have you been losing hair?',
      options: [
        { code: 'lt-6-months', display: 'Less than 6 months' },
        { code: '6-12-months', display: '6 to 12 months' },
        { code: '1-5-years', display: '1 to 5 years' },
        { code: 'gt-5-years', display: 'More than 5 years' },
      ],
    },
    {
      linkId: 'scalp_symptoms',
      type: 'multi-choice',
      text: 'Have you noticed any of these?',
      options: [
        {
          code: 'sudden-shedding',
          display: 'Hair suddenly coming out in clumps or handfuls over days or weeks',
          disqualify:
            "Hair that falls out suddenly or in clumps usually isn't pattern hair loss. It can follow an illness, a medicine, or a hormone or thyroid change, or be a condition such as alopecia areata, and it needs an exam and sometimes blood tests. Please see a dermatologist or your doctor in person.",
        },
        {
          code: 'scalp-inflammation',
          display: 'Redness, pain, burning, tenderness, sores, pus or scabs on your scalp',
          disqualify: SCALP_REASON,
        },
        {
          code: 'scarring',
          display: 'Smooth, shiny patches of scalp where the hair has gone',
          disqualify: SCALP_REASON,
        },
        {
          code: 'body-hair-loss',
          display: 'Losing hair from your eyebrows, eyelashes, beard or body',
          disqualify:
            'Losing hair from your eyebrows, eyelashes, beard or body as well as your scalp points to a cause other than pattern hair loss, such as alopecia areata or a thyroid problem. Please see a dermatologist or your doctor in person for an exam.',
        },
        {
          code: 'flaking',
          display: 'Mild flaking or dandruff',
          flag: {
            code: 'scalp-flaking',
            severity: 'info',
            text: 'Flaking or dandruff: possible seborrheic dermatitis (consider ketoconazole shampoo); minoxidil solution with propylene glycol may irritate — foam may suit better.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'triggers',
      type: 'multi-choice',
      text: 'In the 6 months before your hair loss started, did you have any of these?',
      options: [
        {
          code: 'illness-surgery',
          display: 'A serious illness, a high fever, COVID-19 or surgery',
          flag: {
            code: 'telogen-effluvium-trigger',
            severity: 'info',
            text: 'Recent illness, fever or surgery: consider telogen effluvium.',
          },
        },
        {
          code: 'weight-loss',
          display: 'Fast weight loss or a very strict diet',
          flag: {
            code: 'telogen-effluvium-trigger',
            severity: 'info',
            text: 'Fast weight loss or restrictive diet: consider telogen effluvium or nutritional deficiency.',
          },
        },
        {
          code: 'pregnancy-birth',
          display: 'A pregnancy, or giving birth',
          flag: {
            code: 'telogen-effluvium-trigger',
            severity: 'info',
            text: 'Recent pregnancy: consider postpartum telogen effluvium.',
          },
        },
        {
          code: 'medicine-change',
          display:
            'Starting or stopping a medicine, including birth control, hormones, testosterone or steroids',
          flag: {
            code: 'medicine-related-hair-loss',
            severity: 'info',
            text: 'Medicine change before onset: consider drug-induced shedding; testosterone and anabolic steroids can speed up pattern loss.',
          },
        },
        {
          code: 'severe-stress',
          display: 'A time of severe stress',
          flag: {
            code: 'telogen-effluvium-trigger',
            severity: 'info',
            text: 'Severe stress before onset: consider telogen effluvium.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'family_history',
      type: 'choice',
      text: 'Do close relatives (parents, brothers or sisters, grandparents) have similar hair loss?',
      options: [
        { code: 'yes', display: 'Yes' },
        { code: 'no', display: 'No' },
        { code: 'not-sure', display: "I'm not sure" },
      ],
    },
    // Your health
    {
      linkId: 'conditions',
      type: 'multi-choice',
      text: 'Do you have, or have you had, any of these?',
      options: [
        {
          code: 'low-blood-pressure',
          display: 'Low blood pressure, or fainting or dizziness when you stand up',
          flag: {
            code: 'hypotension-oral-minoxidil',
            severity: 'high',
            text: 'Low blood pressure or dizziness on standing: oral minoxidil (a vasodilator) may make it worse; prefer topical.',
          },
        },
        {
          code: 'heart-condition',
          display:
            'A heart condition — such as heart failure, a heart attack, angina, a fast or irregular heartbeat, or a heart valve problem',
          flag: {
            code: 'cardiac-oral-minoxidil',
            severity: 'high',
            text: 'Heart disease: oral minoxidil can cause a fast heart rate, fluid retention and pericardial effusion; avoid or coordinate with cardiology; prefer topical.',
          },
        },
        {
          code: 'treated-high-blood-pressure',
          display: 'High blood pressure that you take medicine for',
          flag: {
            code: 'antihypertensive-oral-minoxidil',
            severity: 'caution',
            text: 'On blood pressure medicines: additive lowering with oral minoxidil.',
          },
        },
        {
          code: 'kidney-disease',
          display: 'Kidney disease',
          flag: {
            code: 'renal-oral-minoxidil',
            severity: 'caution',
            text: 'Kidney disease: higher risk of fluid retention with oral minoxidil.',
          },
        },
        {
          code: 'liver-disease',
          display: 'Liver disease',
          flag: {
            code: 'hepatic-finasteride',
            severity: 'caution',
            text: 'Liver disease: finasteride is cleared by the liver; use caution.',
          },
        },
        {
          code: 'thyroid',
          display: 'A thyroid problem',
          flag: {
            code: 'thyroid',
            severity: 'info',
            text: 'Thyroid disease: can cause diffuse hair loss; check it is treated.',
          },
        },
        {
          code: 'iron-deficiency',
          display: 'Low iron or anemia',
          flag: {
            code: 'iron-deficiency',
            severity: 'info',
            text: 'Iron deficiency: can add to hair loss; consider ferritin.',
          },
        },
        {
          code: 'hormonal-signs',
          display:
            'Irregular periods, or new acne or facial hair as well as hair loss (for example, polycystic ovary syndrome)',
          flag: {
            code: 'hyperandrogenism',
            severity: 'caution',
            text: 'Signs of androgen excess: consider PCOS evaluation (testosterone, DHEA-S); spironolactone may be an option.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'prostate',
      type: 'multi-choice',
      text: 'Have you had any of these?',
      enableWhen: [{ question: 'sex_at_birth', operator: '=', answer: 'male' }],
      options: [
        {
          code: 'prostate-cancer',
          display: 'Prostate cancer, now or in the past',
          flag: {
            code: 'prostate-cancer',
            severity: 'high',
            text: 'Prostate cancer history: finasteride lowers PSA by about half and may affect monitoring; coordinate with urology or oncology.',
          },
        },
        {
          code: 'raised-psa',
          display: 'A raised PSA result that your doctor is following, or a prostate biopsy',
          flag: {
            code: 'psa-surveillance',
            severity: 'caution',
            text: 'Raised PSA under follow-up: finasteride halves PSA; the clinician following it must know (double the value to interpret).',
          },
        },
        {
          code: 'enlarged-prostate',
          display: 'An enlarged prostate (BPH)',
          flag: {
            code: 'bph',
            severity: 'info',
            text: 'Enlarged prostate: check for finasteride 5 mg or dutasteride already (same medicine family).',
          },
        },
        none,
      ],
    },
    {
      linkId: 'psa_tested',
      type: 'boolean',
      text: 'Have you ever had a PSA blood test (a prostate check)?',
      enableWhen: [{ question: 'sex_at_birth', operator: '=', answer: 'male' }],
      flagWhen: {
        answer: true,
        flag: {
          code: 'psa-tested',
          severity: 'info',
          text: 'Has had PSA testing: finasteride lowers PSA by about half; tell the patient to let whoever orders PSA tests know.',
        },
      },
    },
    {
      linkId: 'psa_last_date',
      type: 'date',
      text: 'About when was your most recent PSA test?',
      helpText: 'An approximate date is fine.',
      enableWhen: [{ question: 'psa_tested', operator: '=', answer: true }],
    },
    {
      linkId: 'depression',
      type: 'choice',
      text: 'Have you ever been diagnosed with, or treated for, depression?',
      options: [
        { code: 'never', display: 'No' },
        {
          code: 'past',
          display: 'Yes, in the past',
          flag: {
            code: 'depression-history-finasteride',
            severity: 'caution',
            text: 'Past depression: finasteride label warns of mood changes, depression and suicidal thoughts; counsel and follow up, or prefer minoxidil.',
          },
        },
        {
          code: 'current',
          display: 'Yes, I have depression now',
          flag: {
            code: 'depression-current-finasteride',
            severity: 'high',
            text: 'Current depression: finasteride label warns of mood changes, depression and suicidal thoughts; consider minoxidil instead, or close follow-up.',
          },
        },
      ],
    },
    {
      linkId: 'self_harm_thoughts',
      type: 'boolean',
      text: 'Over the last 2 weeks, have you had thoughts that you would be better off dead, or thoughts of hurting yourself in some way?',
      disqualifyWhen: {
        answer: true,
        reason:
          "Thank you for telling us. You deserve support right now, and an online hair visit isn't the right care for what you're going through, so we've stopped here. Please call or text 988 (the Suicide & Crisis Lifeline) to talk with someone now — it's free, confidential and open 24 hours a day, and you can also chat at 988lifeline.org. If you might act on these thoughts or are in danger, call 911 or go to the nearest emergency room. Please also let your own doctor or a mental health professional know how you're feeling.",
      },
    },
    // Treatment
    {
      linkId: 'treatments_tried',
      type: 'multi-choice',
      text: 'Which hair-loss treatments have you used, now or in the past?',
      options: [
        { code: 'topical-minoxidil', display: 'Minoxidil solution or foam (Rogaine or generic)' },
        { code: 'oral-minoxidil', display: 'Minoxidil tablets' },
        { code: 'finasteride', display: 'Finasteride (Propecia, Proscar or generic)' },
        { code: 'dutasteride', display: 'Dutasteride (Avodart)' },
        { code: 'spironolactone', display: 'Spironolactone' },
        {
          code: 'other',
          display:
            'Something else, such as ketoconazole shampoo, biotin, a laser device, PRP injections or a hair transplant',
        },
        { code: 'none', display: "None — I haven't tried a treatment", exclusive: true },
      ],
    },
    {
      linkId: 'treatment_response',
      type: 'choice',
      text: 'How did minoxidil, finasteride or your other prescription treatment go?',
      enableBehavior: 'any',
      enableWhen: [
        { question: 'treatments_tried', operator: 'includes', answer: 'topical-minoxidil' },
        { question: 'treatments_tried', operator: 'includes', answer: 'oral-minoxidil' },
        { question: 'treatments_tried', operator: 'includes', answer: 'finasteride' },
        { question: 'treatments_tried', operator: 'includes', answer: 'dutasteride' },
        { question: 'treatments_tried', operator: 'includes', answer: 'spironolactone' },
      ],
      options: [
        { code: 'helped', display: 'It helped' },
        { code: 'no-change', display: "I didn't notice a change" },
        { code: 'too-soon', display: 'I used it for less than 6 months' },
        {
          code: 'side-effects',
          display: 'I had side effects',
          flag: {
            code: 'prior-treatment-side-effects',
            severity: 'caution',
            text: 'Side effects with a previous hair-loss treatment: see details.',
          },
        },
      ],
    },
    {
      linkId: 'treatment_side_effects',
      type: 'text',
      text: 'What side effects did you have, and with which treatment?',
      maxLength: 1000,
      enableWhen: [{ question: 'treatment_response', operator: '=', answer: 'side-effects' }],
    },
    {
      linkId: 'preference',
      type: 'choice',
      text: 'What kind of treatment would you prefer?',
      options: [
        { code: 'oral', display: 'A daily tablet' },
        { code: 'topical', display: 'Something I apply to my scalp' },
        { code: 'both', display: 'Both, if my provider recommends it' },
        { code: 'no-preference', display: "No preference — I'd like my provider's advice" },
      ],
    },
    {
      linkId: 'other_medicines',
      type: 'boolean',
      text: 'Do you take any other prescription or over-the-counter medicines or supplements?',
    },
    {
      linkId: 'other_medicines_list',
      type: 'text',
      text: 'Which medicines and supplements do you take, and at what doses?',
      maxLength: 1000,
      enableWhen: [{ question: 'other_medicines', operator: '=', answer: true }],
    },
    {
      linkId: 'allergies',
      type: 'boolean',
      text: 'Are you allergic to any medicines or ingredients?',
      helpText:
        'Including finasteride, minoxidil, or propylene glycol (in some minoxidil solutions).',
    },
    {
      linkId: 'allergies_list',
      type: 'text',
      text: 'Which ones, and what happened?',
      maxLength: 1000,
      enableWhen: [{ question: 'allergies', operator: '=', answer: true }],
    },
    {
      linkId: 'anything_else',
      type: 'text',
      text: "Is there anything else you'd like your provider to know?",
      required: false,
      maxLength: 2000,
    },
  ],
};
