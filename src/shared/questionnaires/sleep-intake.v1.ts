import type { AnswerOption, Questionnaire } from './format.ts';

/**
 * Sleep (insomnia) intake, version 1.0.0. Screens for the contraindications and warnings of
 * low-dose doxepin (MAO inhibitors, untreated narrow-angle glaucoma, severe urinary retention,
 * other central nervous system depressants) and for conditions that need their own care first
 * (suspected sleep apnea, pregnancy, thoughts of self-harm), and gives the provider an
 * insomnia history. The severity items are written in the style of the Insomnia Severity Index but
 * are not the licensed ISI; the mood items follow the PHQ-2 (free to use).
 *
 * Released versions are never edited: change the content in a new file (sleep-intake.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

/** Insomnia-severity style answers, shared by the three symptom items. */
const severity: AnswerOption[] = [
  { code: 'none', display: 'None' },
  { code: 'mild', display: 'Mild' },
  { code: 'moderate', display: 'Moderate' },
  { code: 'severe', display: 'Severe' },
  { code: 'very-severe', display: 'Very severe' },
];

const phqFrequency = (flagCode: string, flagText: string): AnswerOption[] => [
  { code: 'not-at-all', display: 'Not at all' },
  { code: 'several-days', display: 'Several days' },
  {
    code: 'more-than-half',
    display: 'More than half the days',
    flag: { code: flagCode, severity: 'caution', text: flagText },
  },
  {
    code: 'nearly-every-day',
    display: 'Nearly every day',
    flag: { code: flagCode, severity: 'caution', text: flagText },
  },
];

const PREGNANCY_REASON =
  "Prescription sleep medicines aren't recommended during pregnancy or while breastfeeding, because they can reach your baby. Please talk with your OB-GYN, midwife or doctor in person: sleep problems around pregnancy are common, and they can help you safely.";

const SEDATIVE_REASON =
  "Taking a prescription sleep medicine together with this medicine can cause dangerous drowsiness, slowed breathing, falls and accidents, so we can't prescribe one online. Please talk with the doctor who prescribes your medicine about your sleep. If you use it without a prescription and would like help, a doctor in person can help confidentially, and you can call SAMHSA's free helpline at 1-800-662-4357.";

export const sleepIntakeV1: Questionnaire = {
  id: 'sleep-intake',
  version: '1.0.0',
  category: 'sleep',
  title: 'Sleep (insomnia) visit',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome to your Sleep visit. We'll ask about your sleep, your breathing at night, your mood and the medicines you take. A licensed provider reads every answer before deciding whether a prescription sleep aid, sleep-habit guidance or a different kind of care is right for you. If you are thinking about harming yourself, call or text 988 now. In an emergency, call 911.",
    },
    {
      linkId: 'age',
      type: 'integer',
      text: 'How old are you?',
      helpText:
        'Some questions and doses depend on age. This should match the date of birth you gave us.',
      unit: 'years',
      min: 1,
      max: 120,
      disqualifyOutside: {
        min: 19,
        max: 99,
        reason:
          "Pairwell online visits are for adults aged 19 to 99, so we can't continue this visit. Please talk with a doctor in person about your sleep.",
      },
    },
    {
      linkId: 'sex_at_birth',
      type: 'choice',
      text: 'What sex were you assigned at birth?',
      helpText:
        "Some medicines aren't safe in pregnancy or while breastfeeding. You can tell your provider more, including your gender identity, in your messages.",
      options: [
        { code: 'female', display: 'Female' },
        { code: 'male', display: 'Male' },
      ],
    },
    {
      linkId: 'pregnancy',
      type: 'multi-choice',
      text: 'Do any of these apply to you right now?',
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
          display: "I'm trying to become pregnant",
          flag: {
            code: 'planning-pregnancy',
            severity: 'caution',
            text: 'Trying to conceive: prefer non-drug treatment (CBT-I, sleep habits); doxepin pregnancy data are limited.',
          },
        },
        none,
      ],
    },
    // Your sleep
    {
      linkId: 'insomnia_duration',
      type: 'choice',
      text: 'How long have you been having trouble sleeping?',
      options: [
        {
          code: 'lt-1-month',
          display: 'Less than 1 month',
          flag: {
            code: 'short-term-insomnia',
            severity: 'info',
            text: 'Insomnia for less than 1 month: look for a trigger; a sleep medicine may not be needed.',
          },
        },
        { code: '1-3-months', display: '1 to 3 months' },
        { code: '3-12-months', display: '3 to 12 months' },
        { code: 'gt-1-year', display: 'More than a year' },
      ],
    },
    {
      linkId: 'nights_per_week',
      type: 'integer',
      text: 'In a typical week, on how many nights do you have trouble sleeping?',
      unit: 'nights',
      min: 0,
      max: 7,
    },
    {
      linkId: 'sleep_hours',
      type: 'decimal',
      text: 'On a typical night, about how many hours do you actually sleep?',
      helpText: 'For example, 5.5.',
      unit: 'hours',
      min: 0,
      max: 16,
    },
    {
      linkId: 'difficulty_falling_asleep',
      type: 'choice',
      text: 'Over the last 2 weeks, how much trouble have you had falling asleep?',
      options: severity,
    },
    {
      linkId: 'difficulty_staying_asleep',
      type: 'choice',
      text: 'Over the last 2 weeks, how much trouble have you had staying asleep through the night?',
      options: severity,
    },
    {
      linkId: 'waking_too_early',
      type: 'choice',
      text: 'Over the last 2 weeks, how much trouble have you had with waking up too early and not getting back to sleep?',
      options: severity,
    },
    {
      linkId: 'daytime_impact',
      type: 'choice',
      text: 'How much do your sleep problems get in the way of your daily life — for example your energy, mood, concentration, work or relationships?',
      options: [
        { code: 'not-at-all', display: 'Not at all' },
        { code: 'a-little', display: 'A little' },
        { code: 'somewhat', display: 'Somewhat' },
        { code: 'much', display: 'Much' },
        { code: 'very-much', display: 'Very much' },
      ],
    },
    {
      linkId: 'breathing_at_night',
      type: 'multi-choice',
      text: 'Has anyone told you, or have you noticed, any of these while you sleep?',
      options: [
        {
          code: 'loud-snoring',
          display: 'Loud snoring (loud enough to be heard through a closed door)',
          flag: {
            code: 'loud-snoring',
            severity: 'caution',
            text: 'Loud snoring: screen for obstructive sleep apnea (e.g. STOP-BANG); a sedative may worsen undiagnosed apnea.',
          },
        },
        {
          code: 'breathing-pauses',
          display: 'Pauses or stops in your breathing',
          flag: {
            code: 'witnessed-apneas',
            severity: 'high',
            text: 'Witnessed apneas: suspected obstructive sleep apnea.',
          },
        },
        {
          code: 'gasping',
          display: 'Waking up gasping, choking or short of breath',
          flag: {
            code: 'nocturnal-gasping',
            severity: 'high',
            text: 'Waking up gasping or choking: suspected obstructive sleep apnea.',
          },
        },
        { code: 'none', display: 'None of these, as far as I know', exclusive: true },
      ],
    },
    {
      linkId: 'sleep_apnea_checked',
      type: 'choice',
      text: 'Have you been checked for sleep apnea with a sleep study?',
      enableBehavior: 'any',
      enableWhen: [
        { question: 'breathing_at_night', operator: 'includes', answer: 'breathing-pauses' },
        { question: 'breathing_at_night', operator: 'includes', answer: 'gasping' },
      ],
      options: [
        {
          code: 'treated',
          display: 'Yes — I have sleep apnea and use CPAP or another treatment most nights',
          flag: {
            code: 'osa-treated',
            severity: 'info',
            text: 'Treated sleep apnea: confirm nightly use; low-dose doxepin is not recommended in severe sleep apnea.',
          },
        },
        { code: 'ruled-out', display: "Yes — the sleep study showed I don't have sleep apnea" },
        {
          code: 'untreated',
          display: "Yes — I have sleep apnea but don't use treatment",
          disqualify:
            'Untreated sleep apnea can cause poor sleep on its own, and a sleep medicine may make breathing pauses worse. Please talk with your sleep doctor in person about restarting or adjusting treatment such as CPAP — that is often the best way to improve your sleep.',
        },
        {
          code: 'not-checked',
          display: "No, I haven't been checked",
          disqualify:
            "Pauses in breathing or waking up gasping can be signs of sleep apnea, a common condition that disturbs sleep and strains the heart. A sleep medicine won't treat it and may make breathing pauses worse, so we can't prescribe one online until you've been checked. Please ask a doctor in person about a sleep study — it can often be done at home, and treating sleep apnea often improves sleep a lot.",
        },
      ],
    },
    {
      linkId: 'restless_legs',
      type: 'boolean',
      text: 'In the evening or at night, do you get an uncomfortable urge to move your legs that gets better when you move them?',
      flagWhen: {
        answer: true,
        flag: {
          code: 'possible-restless-legs',
          severity: 'caution',
          text: 'Possible restless legs syndrome: consider ferritin and iron studies; sedating antidepressants (including doxepin) and antihistamines can worsen it.',
        },
      },
    },
    {
      linkId: 'shift_work',
      type: 'choice',
      text: 'Do you work night shifts or rotating shifts?',
      options: [
        { code: 'no', display: 'No' },
        {
          code: 'nights',
          display: 'Yes, mostly night shifts',
          flag: {
            code: 'shift-work',
            severity: 'info',
            text: 'Night shift work: consider a circadian (shift work) sleep disorder; time any dose to the main sleep period with 7 to 8 hours available.',
          },
        },
        {
          code: 'rotating',
          display: 'Yes, my shifts rotate',
          flag: {
            code: 'shift-work',
            severity: 'info',
            text: 'Rotating shift work: consider a circadian (shift work) sleep disorder; time any dose to the main sleep period with 7 to 8 hours available.',
          },
        },
      ],
    },
    {
      linkId: 'drowsy_driving',
      type: 'boolean',
      text: 'In the last 3 months, have you nodded off or nearly fallen asleep while driving?',
      helpText: "Please don't drive when you feel drowsy.",
      flagWhen: {
        answer: true,
        flag: {
          code: 'drowsy-driving',
          severity: 'high',
          text: 'Drowsy driving: serious safety risk; evaluate for sleep apnea or another cause of sleepiness; counsel about next-day impairment and not driving when drowsy.',
        },
      },
    },
    // Mood
    {
      linkId: 'mood_intro',
      type: 'display',
      text: "Sleep and mood are closely linked, so the next questions are about how you've been feeling. If you ever feel you might harm yourself, call or text 988 (the Suicide & Crisis Lifeline) any time.",
    },
    {
      linkId: 'little_interest',
      type: 'choice',
      text: 'Over the last 2 weeks, how often have you been bothered by having little interest or pleasure in doing things?',
      options: phqFrequency(
        'phq2-anhedonia',
        'Little interest or pleasure on more than half the days (PHQ-2): screen for depression (PHQ-9); insomnia may be part of it.',
      ),
    },
    {
      linkId: 'feeling_down',
      type: 'choice',
      text: 'Over the last 2 weeks, how often have you been bothered by feeling down, depressed or hopeless?',
      options: phqFrequency(
        'phq2-low-mood',
        'Low mood on more than half the days (PHQ-2): screen for depression (PHQ-9); insomnia may be part of it.',
      ),
    },
    {
      linkId: 'self_harm_thoughts',
      type: 'boolean',
      text: 'Over the last 2 weeks, have you had thoughts that you would be better off dead, or thoughts of hurting yourself in some way?',
      disqualifyWhen: {
        answer: true,
        reason:
          "Thank you for telling us. You deserve support right now, and an online sleep visit isn't the right care for what you're going through, so we've stopped here. Please call or text 988 (the Suicide & Crisis Lifeline) to talk with someone now — it's free, confidential and open 24 hours a day, and you can also chat at 988lifeline.org. If you might act on these thoughts or are in danger, call 911 or go to the nearest emergency room. Please also let your own doctor or a mental health professional know how you're feeling.",
      },
    },
    // Medicines and health conditions
    {
      linkId: 'sedating_medicines',
      type: 'multi-choice',
      text: 'Do you take any of these, with or without a prescription?',
      helpText: 'Include medicines you take only sometimes.',
      options: [
        {
          code: 'opioids',
          display:
            'Opioid pain medicine or opioid treatment, such as oxycodone, hydrocodone, morphine, codeine, tramadol, fentanyl, methadone or buprenorphine',
          disqualify:
            "Sleep medicines taken with opioids can slow your breathing to a dangerous level, so we can't prescribe one online while you take an opioid. Please talk with the doctor who prescribes it about your sleep, and ask about having naloxone at home. If you use opioids without a prescription and would like help, call SAMHSA's free helpline at 1-800-662-4357.",
        },
        {
          code: 'benzodiazepines',
          display:
            'A benzodiazepine, such as alprazolam (Xanax), lorazepam (Ativan), clonazepam (Klonopin), diazepam (Valium) or temazepam (Restoril)',
          disqualify: SEDATIVE_REASON,
        },
        {
          code: 'sleep-medicines',
          display:
            'Another prescription sleep medicine, such as zolpidem (Ambien), eszopiclone (Lunesta), zaleplon, suvorexant (Belsomra), lemborexant (Dayvigo), daridorexant (Quviviq), trazodone or doxepin',
          disqualify:
            'You already take a prescription sleep medicine, and adding another could cause dangerous drowsiness, falls and accidents. Please talk with the doctor who prescribes it about your sleep; if you want to change treatment, they can help you do it safely.',
        },
        {
          code: 'other-sedatives',
          display:
            'A barbiturate (such as phenobarbital or butalbital) or sodium oxybate (Xyrem, Xywav)',
          disqualify: SEDATIVE_REASON,
        },
        {
          code: 'gabapentinoids',
          display: 'Gabapentin (Neurontin) or pregabalin (Lyrica)',
          flag: {
            code: 'gabapentinoid',
            severity: 'caution',
            text: 'Gabapentin or pregabalin: additive sedation and breathing risk with other sedatives (FDA 2019 warning); lowest dose.',
          },
        },
        {
          code: 'otc-sleep-aids',
          display:
            'Over-the-counter sleep aids with diphenhydramine or doxylamine (ZzzQuil, Unisom, Tylenol PM, Advil PM)',
          flag: {
            code: 'otc-antihistamine',
            severity: 'info',
            text: 'Over-the-counter antihistamine sleep aid: anticholinergic (Beers criteria); advise stopping before doxepin (both block H1).',
          },
        },
        none,
      ],
    },
    {
      linkId: 'maoi',
      type: 'boolean',
      text: 'In the last 2 weeks, have you taken an MAO inhibitor — phenelzine (Nardil), tranylcypromine (Parnate), isocarboxazid (Marplan), selegiline (Emsam, Zelapar), rasagiline (Azilect) or safinamide (Xadago)?',
      helpText: "These medicines are used for depression or Parkinson's disease.",
      disqualifyWhen: {
        answer: true,
        reason:
          'Doxepin must not be taken within 2 weeks of an MAO inhibitor, because together they can cause serious reactions. Please talk with the doctor who prescribes your MAO inhibitor about your sleep.',
      },
    },
    {
      linkId: 'eye_bladder',
      type: 'multi-choice',
      text: 'Do you have any of these?',
      options: [
        {
          code: 'narrow-angle-glaucoma',
          display:
            "Narrow-angle (angle-closure) glaucoma, or “narrow angles”, that hasn't been treated with laser or surgery — or you're not sure",
          disqualify:
            'Doxepin can cause a sudden, serious rise in eye pressure in people with untreated narrow-angle glaucoma, which can damage your sight. Please talk with your eye doctor and a doctor in person about treating your sleep safely. If you have sudden eye pain, redness, blurred vision or halos around lights, go to an emergency room.',
        },
        {
          code: 'other-glaucoma',
          display: 'Open-angle glaucoma, or narrow angles already treated with laser or surgery',
          flag: {
            code: 'glaucoma-other',
            severity: 'info',
            text: "Open-angle or treated narrow-angle glaucoma: confirm with the patient's eye care.",
          },
        },
        {
          code: 'urinary-retention',
          display:
            "Severe trouble emptying your bladder — for example, you've needed a catheter, or you often can't pass urine when you need to",
          disqualify:
            "Doxepin can make it harder to pass urine, which can be dangerous if you already have severe trouble emptying your bladder. Please talk with a doctor in person about your sleep and your bladder. If you can't pass urine at all, get urgent care.",
        },
        {
          code: 'enlarged-prostate',
          display: 'An enlarged prostate with a weak stream or trouble starting to urinate',
          flag: {
            code: 'urinary-hesitancy',
            severity: 'caution',
            text: 'Enlarged prostate or urinary hesitancy: anticholinergic caution; counsel about retention.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'conditions',
      type: 'multi-choice',
      text: 'Do you have, or have you had, any of these?',
      options: [
        {
          code: 'bipolar',
          display:
            'Bipolar disorder, or a time of very high energy or mood when you needed very little sleep',
          flag: {
            code: 'bipolar',
            severity: 'high',
            text: 'Bipolar disorder or past mania: an antidepressant (doxepin) may trigger mania, and insomnia may signal relapse; coordinate with psychiatry.',
          },
        },
        {
          code: 'liver-disease',
          display: 'Liver disease, such as cirrhosis or hepatitis',
          flag: {
            code: 'hepatic-impairment',
            severity: 'caution',
            text: 'Liver disease: doxepin label advises starting at 3 mg.',
          },
        },
        {
          code: 'severe-lung-disease',
          display: 'Severe lung disease, such as COPD that needs oxygen',
          flag: {
            code: 'severe-lung-disease',
            severity: 'high',
            text: 'Severe lung disease: sedative caution (breathing).',
          },
        },
        {
          code: 'complex-sleep-behaviour',
          display:
            'Sleepwalking, sleep-driving or doing other things while not fully awake, especially after a sleep medicine',
          flag: {
            code: 'complex-sleep-behaviour',
            severity: 'high',
            text: 'Complex sleep behaviours: warning for hypnotics, including doxepin; contraindication for zolpidem, eszopiclone and zaleplon.',
          },
        },
        {
          code: 'tricyclic-allergy',
          display:
            'An allergic reaction to doxepin or a similar antidepressant (such as amitriptyline)',
          flag: {
            code: 'tricyclic-hypersensitivity',
            severity: 'high',
            text: 'Hypersensitivity to doxepin or another tricyclic: doxepin contraindicated.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'falls',
      type: 'boolean',
      text: 'In the past 12 months, have you had a fall?',
      enableWhen: [{ question: 'age', operator: '>=', answer: 65 }],
      flagWhen: {
        answer: true,
        flag: {
          code: 'falls-older-adult',
          severity: 'high',
          text: 'Fall in the past 12 months, age 65 or over: sedatives raise fall and fracture risk; start doxepin at 3 mg (Beers: avoid more than 6 mg); counsel about getting up at night.',
        },
      },
    },
    {
      linkId: 'last_fall_date',
      type: 'date',
      text: 'When was your most recent fall?',
      helpText: 'An approximate date is fine.',
      enableWhen: [{ question: 'falls', operator: '=', answer: true }],
    },
    {
      linkId: 'alcohol',
      type: 'choice',
      text: 'How much alcohol do you usually drink?',
      options: [
        { code: 'none', display: "I don't drink alcohol" },
        { code: '1-7', display: '1 to 7 drinks a week' },
        {
          code: '8-14',
          display: '8 to 14 drinks a week',
          flag: {
            code: 'alcohol-moderate',
            severity: 'caution',
            text: '8 to 14 drinks a week: alcohol adds to sedation with doxepin and fragments sleep; counsel.',
          },
        },
        {
          code: 'heavy',
          display: 'More than 14 drinks a week, or 5 or more drinks at one time',
          flag: {
            code: 'alcohol-heavy',
            severity: 'high',
            text: 'Heavy alcohol use: dangerous added sedation with doxepin; screen for alcohol use disorder (AUDIT-C).',
          },
        },
      ],
    },
    {
      linkId: 'substances',
      type: 'multi-choice',
      text: 'Do any of these apply to you?',
      helpText: 'Your answers are confidential and help your provider keep you safe.',
      options: [
        {
          code: 'late-caffeine',
          display: 'I have caffeine (coffee, tea, energy drinks or cola) after 2 p.m.',
          flag: {
            code: 'late-caffeine',
            severity: 'info',
            text: 'Caffeine after 2 p.m.: sleep-habit guidance.',
          },
        },
        {
          code: 'alcohol-for-sleep',
          display: 'I drink alcohol to help me fall asleep',
          flag: {
            code: 'alcohol-as-sleep-aid',
            severity: 'caution',
            text: 'Uses alcohol as a sleep aid: added sedation with doxepin; counsel.',
          },
        },
        {
          code: 'nicotine',
          display: 'I smoke, vape or use other nicotine',
          flag: {
            code: 'nicotine',
            severity: 'info',
            text: 'Nicotine (a stimulant): sleep-habit guidance; offer help to quit.',
          },
        },
        {
          code: 'cannabis',
          display: 'I use cannabis, including THC or CBD products for sleep',
          flag: {
            code: 'cannabis',
            severity: 'info',
            text: 'Cannabis use: added sedation; withdrawal can cause insomnia.',
          },
        },
        {
          code: 'stimulants',
          display: 'I use cocaine, methamphetamine, or stimulant pills not prescribed to me',
          flag: {
            code: 'stimulant-misuse',
            severity: 'high',
            text: 'Non-prescribed stimulant use: likely cause of insomnia; assess substance use.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'other_medicines',
      type: 'boolean',
      text: 'Do you take any other prescription or over-the-counter medicines or supplements, including melatonin?',
    },
    {
      linkId: 'other_medicines_list',
      type: 'text',
      text: 'Which medicines and supplements do you take, and at what doses?',
      helpText:
        'Include antidepressants and stomach medicines such as cimetidine (Tagamet), which can change how doxepin works.',
      maxLength: 1000,
      enableWhen: [{ question: 'other_medicines', operator: '=', answer: true }],
    },
  ],
};
