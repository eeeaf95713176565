import type { AnswerOption, Questionnaire } from './format.ts';

/**
 * ED (erectile dysfunction) intake, version 1.0.0. Screens for the contraindications and cautions
 * of the PDE5 inhibitors (sildenafil, tadalafil) in their US labels and in the Princeton III
 * consensus on sexual activity and cardiac risk, and gives the provider the ED history.
 *
 * Released versions are never edited: change the content in a new file (ed-intake.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

const NITRATE_REASON =
  "Nitrate medicines (such as nitroglycerin or isosorbide) taken with ED medicines can make your blood pressure drop suddenly to a dangerous level, which can cause fainting, a heart attack or a stroke. For your safety we can't prescribe ED treatment online. Please talk with your doctor or cardiologist in person about options that are safe for you.";

const POPPERS_REASON =
  "Poppers taken with ED medicines can make your blood pressure drop suddenly to a dangerous level, which can cause fainting, a heart attack or a stroke. For your safety we can't prescribe ED treatment online while you use poppers. Please talk with a doctor in person; the conversation is confidential.";

const RECENT_HEART_EVENT_REASON =
  "After a recent heart attack, stroke or serious heart-rhythm problem, your heart doctor needs to confirm that sexual activity and ED medicines are safe for you, and that can't be done safely online in the first 6 months. Please talk with your cardiologist or doctor in person.";

const CHEST_PAIN_REASON =
  "Chest pain during sex or activity, or chest pain that is new, getting worse or comes on at rest, can be a sign of a heart problem such as unstable angina. Sex and ED medicines aren't safe until a doctor has checked your heart, so please see a doctor in person soon. If you have chest pain now, or it lasts more than a few minutes, call 911.";

const BP_READING_REASON =
  'Your blood pressure reading is outside the range where ED medicine can be started safely online (a top number from 90 to 170 and a bottom number from 50 to 110). Blood pressure that is too low can lead to fainting with ED medicine, and blood pressure that is too high needs treatment first. Please see a doctor in person to recheck it. If you have chest pain, a severe headache, shortness of breath, vision changes, weakness or confusion, call 911.';

export const edIntakeV1: Questionnaire = {
  id: 'ed-intake',
  version: '1.0.0',
  category: 'ed',
  title: 'Erectile dysfunction (ED) visit',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome to your ED visit. We'll ask about your erections, your heart, your blood pressure and the medicines you take. A licensed provider reads every answer before deciding whether treatment is right for you, so please answer as accurately as you can. If you have chest pain, pain spreading to your arm, neck or jaw, or sudden trouble breathing, stop now and call 911.",
    },
    {
      linkId: 'ed_duration',
      type: 'choice',
      text: 'How long have you had trouble getting or keeping an erection?',
      options: [
        {
          code: 'lt-3-months',
          display: 'Less than 3 months',
          flag: {
            code: 'ed-short-duration',
            severity: 'info',
            text: 'ED for less than 3 months: look for a situational trigger or a recent medicine change.',
          },
        },
        { code: '3-12-months', display: '3 to 12 months' },
        { code: '1-5-years', display: '1 to 5 years' },
        { code: 'gt-5-years', display: 'More than 5 years' },
      ],
    },
    {
      linkId: 'ed_onset',
      type: 'choice',
      text: 'How did the problem start?',
      options: [
        { code: 'gradual', display: 'Gradually, getting worse over months or years' },
        {
          code: 'sudden',
          display: 'Suddenly — my erections were fine, then changed within days or weeks',
          flag: {
            code: 'ed-sudden-onset',
            severity: 'caution',
            text: 'Sudden-onset ED: ask about triggers (new medicines, stress, relationship, injury); consider a psychogenic cause or a neurological or vascular event.',
          },
        },
        {
          code: 'after-procedure',
          display: 'After surgery, radiation or an injury to my pelvis, prostate or spine',
          flag: {
            code: 'ed-after-procedure',
            severity: 'caution',
            text: 'ED after pelvic or prostate surgery, radiation, or pelvic/spinal injury: likely neurogenic or vascular; consider urology.',
          },
        },
        {
          code: 'lifelong',
          display: "I've always had this problem",
          flag: {
            code: 'ed-lifelong',
            severity: 'info',
            text: 'Lifelong ED: consider congenital, hormonal or psychogenic causes; urology if no response to treatment.',
          },
        },
      ],
    },
    {
      linkId: 'ed_frequency',
      type: 'choice',
      text: 'When you have sexual activity, how often can you get and keep an erection firm enough for sex?',
      options: [
        { code: 'almost-always', display: 'Almost always or always' },
        { code: 'most-times', display: 'Most times (much more than half the time)' },
        { code: 'sometimes', display: 'Sometimes (about half the time)' },
        { code: 'a-few-times', display: 'A few times (much less than half the time)' },
        { code: 'almost-never', display: 'Almost never or never' },
      ],
    },
    {
      linkId: 'morning_erections',
      type: 'choice',
      text: "Do you still sometimes wake up with an erection, or get a firm erection when you're on your own (for example, when masturbating)?",
      options: [
        { code: 'regularly', display: 'Yes, regularly' },
        { code: 'sometimes', display: 'Sometimes' },
        {
          code: 'rarely-never',
          display: 'Rarely or never',
          flag: {
            code: 'no-spontaneous-erections',
            severity: 'info',
            text: 'No morning or solo erections: suggests an organic (vascular, neurological or hormonal) cause; consider cardiovascular risk, HbA1c, lipids and morning testosterone.',
          },
        },
      ],
    },
    {
      linkId: 'low_libido',
      type: 'boolean',
      text: 'Have you noticed less interest in sex than you used to have?',
      flagWhen: {
        answer: true,
        flag: {
          code: 'low-libido',
          severity: 'info',
          text: 'Reduced libido: consider testosterone deficiency, depression or medicine side effects.',
        },
      },
    },
    // Heart, blood pressure and medicines that are unsafe with ED treatment
    {
      linkId: 'nitrates',
      type: 'multi-choice',
      text: 'Do you use any of these, even once in a while?',
      helpText:
        'Include medicines you have a prescription for but rarely use, such as nitroglycerin you carry for chest pain.',
      options: [
        {
          code: 'nitroglycerin',
          display:
            'Nitroglycerin — tablets or spray under the tongue, a skin patch or ointment (Nitrostat, Nitrolingual, Nitro-Dur)',
          disqualify: NITRATE_REASON,
        },
        {
          code: 'isosorbide',
          display: 'Isosorbide mononitrate or dinitrate (Imdur, Ismo, Isordil, BiDil)',
          disqualify: NITRATE_REASON,
        },
        {
          code: 'poppers',
          display:
            '“Poppers” — amyl, butyl or isobutyl nitrite, sometimes sold as “room odorizer” or “leather cleaner”',
          disqualify: POPPERS_REASON,
        },
        none,
      ],
    },
    {
      linkId: 'interacting_medicines',
      type: 'multi-choice',
      text: 'Do you take any of these medicines?',
      options: [
        {
          code: 'riociguat',
          display: 'Riociguat (Adempas), for pulmonary hypertension',
          disqualify:
            'Riociguat (Adempas) must not be taken with ED medicines such as sildenafil or tadalafil, because together they can lower your blood pressure to a dangerous level. Please talk with the specialist who prescribes riociguat about erection problems.',
        },
        {
          code: 'vericiguat',
          display: 'Vericiguat (Verquvo), for heart failure',
          disqualify:
            'Vericiguat (Verquvo) is not recommended with ED medicines such as sildenafil or tadalafil, because together they can lower your blood pressure too much. Please talk with your cardiologist about erection problems.',
        },
        {
          code: 'pde5-for-pah',
          display:
            'Sildenafil (Revatio) or tadalafil (Adcirca, Alyq) prescribed for pulmonary hypertension',
          disqualify:
            'You already take a medicine from the same family as ED treatments, for pulmonary hypertension. Taking another one for ED could be dangerous. Please talk with your lung or heart specialist, who can also advise you about erections.',
        },
        {
          code: 'alpha-blocker',
          display:
            'An alpha-blocker for the prostate or blood pressure: tamsulosin (Flomax), alfuzosin (Uroxatral), silodosin (Rapaflo), doxazosin (Cardura), terazosin or prazosin (Minipress)',
          flag: {
            code: 'alpha-blocker',
            severity: 'caution',
            text: 'Alpha-blocker: risk of symptomatic low blood pressure with a PDE5 inhibitor. Patient should be stable on the alpha-blocker first; start at the lowest dose (e.g. sildenafil 25 mg); counsel about dizziness on standing.',
          },
        },
        {
          code: 'other-bp-medicine',
          display:
            'Another blood pressure medicine, such as amlodipine, lisinopril, losartan, metoprolol or hydrochlorothiazide',
          flag: {
            code: 'antihypertensive',
            severity: 'info',
            text: 'Antihypertensive: additive blood-pressure lowering with a PDE5 inhibitor; counsel about dizziness.',
          },
        },
        {
          code: 'strong-cyp3a4-inhibitor',
          display:
            'Ritonavir or cobicistat (HIV medicines, or Paxlovid for COVID-19), ketoconazole, itraconazole or clarithromycin',
          flag: {
            code: 'strong-cyp3a4-inhibitor',
            severity: 'high',
            text: 'Strong CYP3A4 inhibitor: PDE5 inhibitor levels rise sharply. Follow the label dose limits (e.g. sildenafil no more than 25 mg in 48 h with ritonavir; tadalafil as needed no more than 10 mg in 72 h).',
          },
        },
        {
          code: 'blood-thinner',
          display:
            'A blood thinner, such as warfarin, apixaban (Eliquis), rivaroxaban (Xarelto) or clopidogrel (Plavix)',
          flag: {
            code: 'anticoagulant',
            severity: 'info',
            text: 'Anticoagulant or antiplatelet: ask about the indication (e.g. atrial fibrillation) and bleeding history.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'chest_pain',
      type: 'boolean',
      text: 'Do you get chest pain, pressure or tightness during sex, exercise or other activity — or chest pain that is new, getting worse, or comes on at rest?',
      disqualifyWhen: { answer: true, reason: CHEST_PAIN_REASON },
    },
    {
      linkId: 'heart_conditions',
      type: 'multi-choice',
      text: 'Have you ever had, or been told you have, any of these?',
      options: [
        {
          code: 'heart-attack-6-months',
          display: 'A heart attack in the last 6 months',
          disqualify: RECENT_HEART_EVENT_REASON,
        },
        {
          code: 'stroke-6-months',
          display: 'A stroke or mini-stroke (TIA) in the last 6 months',
          disqualify: RECENT_HEART_EVENT_REASON,
        },
        {
          code: 'arrhythmia-6-months',
          display:
            'A serious or uncontrolled irregular heartbeat in the last 6 months (for example, one that needed emergency care or a shock)',
          disqualify: RECENT_HEART_EVENT_REASON,
        },
        {
          code: 'unstable-angina',
          display:
            'Angina (heart-related chest pain) that is new, getting worse, or comes on at rest',
          disqualify: CHEST_PAIN_REASON,
        },
        {
          code: 'severe-heart-failure',
          display:
            'Heart failure that makes you short of breath with light activity (such as getting dressed) or at rest',
          disqualify:
            "Heart failure that limits everyday activity needs your heart doctor's advice before ED treatment, because sex and ED medicines both put extra strain on your heart and circulation. Please talk with your cardiologist in person.",
        },
        {
          code: 'heart-attack-stroke-past',
          display: 'A heart attack, stroke or TIA more than 6 months ago',
          flag: {
            code: 'past-mi-stroke',
            severity: 'high',
            text: 'Heart attack, stroke or TIA more than 6 months ago: confirm stable, no nitrates; assess cardiac risk (Princeton III).',
          },
        },
        {
          code: 'stable-angina',
          display: 'Stable angina that only happens with heavy effort and is under control',
          flag: {
            code: 'stable-angina',
            severity: 'high',
            text: 'Stable angina: confirm there is no nitrate prescription (including as-needed sublingual nitroglycerin); cardiology input advised.',
          },
        },
        {
          code: 'mild-heart-failure',
          display: "Heart failure that is mild and doesn't limit your everyday activity",
          flag: {
            code: 'heart-failure',
            severity: 'high',
            text: 'Heart failure (patient reports mild): confirm NYHA class I and stable; check for vericiguat or nitrates.',
          },
        },
        {
          code: 'stable-arrhythmia',
          display: 'Atrial fibrillation or another irregular heartbeat that is treated and stable',
          flag: {
            code: 'arrhythmia-stable',
            severity: 'caution',
            text: 'Treated, stable arrhythmia: confirm control and anticoagulation.',
          },
        },
        {
          code: 'outflow-obstruction',
          display:
            'A narrowed heart valve (aortic stenosis) or a thickened heart muscle (hypertrophic cardiomyopathy)',
          flag: {
            code: 'lv-outflow-obstruction',
            severity: 'high',
            text: 'Left ventricular outflow obstruction (aortic stenosis or hypertrophic cardiomyopathy): sensitive to vasodilators; PDE5 inhibitor caution per label; consider cardiology.',
          },
        },
        {
          code: 'heart-procedure',
          display: 'A heart stent, bypass surgery or another heart procedure',
          flag: {
            code: 'cardiac-procedure',
            severity: 'caution',
            text: 'Prior coronary or other cardiac procedure: confirm date, stability and medicines.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'exercise_tolerance',
      type: 'choice',
      text: 'Can you walk up two flights of stairs, or walk briskly for 20 minutes, without stopping because of chest pain, tightness or shortness of breath?',
      helpText: 'Sex takes about the same effort as climbing two flights of stairs.',
      options: [
        { code: 'yes', display: 'Yes' },
        {
          code: 'no-heart-breathing',
          display: 'No — I get chest pain or tightness, very short of breath, or dizzy',
          disqualify:
            'Sex puts about the same strain on your heart as climbing two flights of stairs. Because that kind of effort is hard for your heart or breathing right now, please see a doctor in person to check your heart before starting ED treatment.',
        },
        {
          code: 'no-other-reason',
          display: 'No, but only for another reason (for example, joint pain or a disability)',
          flag: {
            code: 'exercise-capacity-unknown',
            severity: 'caution',
            text: 'Cannot manage about 4 METs for a non-cardiac reason: cardiac exercise capacity unknown; weigh cardiovascular risk (Princeton III).',
          },
        },
      ],
    },
    {
      linkId: 'bp_status',
      type: 'choice',
      text: 'Which best describes your blood pressure?',
      options: [
        { code: 'normal', display: 'Normal, as far as I know' },
        {
          code: 'high-controlled',
          display: 'High blood pressure that is under control with treatment',
          flag: {
            code: 'hypertension-controlled',
            severity: 'info',
            text: 'Treated hypertension: review blood pressure medicines for additive effects.',
          },
        },
        {
          code: 'high-uncontrolled',
          display:
            'High blood pressure that is not under control, or a doctor recently told me it is too high',
          disqualify:
            "ED medicines aren't recommended while blood pressure is high and not under control, because it adds to the strain on your heart during sex. Please see a doctor in person to get your blood pressure under control first; ED treatment may then be an option. If you have a severe headache, chest pain, shortness of breath, vision changes or weakness, call 911.",
        },
        {
          code: 'low',
          display: 'Low blood pressure, or I often feel faint or dizzy when I stand up',
          disqualify:
            'ED medicines lower blood pressure a little, which can be dangerous if yours is already low or you often feel faint. Please see a doctor in person to find the cause first. If you faint or feel confused, get medical care right away.',
        },
        {
          code: 'unknown',
          display: "I don't know",
          flag: {
            code: 'bp-unknown',
            severity: 'caution',
            text: 'Blood pressure status unknown: consider requesting a current reading before prescribing.',
          },
        },
      ],
    },
    {
      linkId: 'bp_measured',
      type: 'choice',
      text: 'Have you had your blood pressure measured in the last 12 months?',
      helpText: "A reading at a pharmacy, at home or at a doctor's office counts.",
      options: [
        { code: 'yes-numbers', display: 'Yes, and I know the numbers' },
        { code: 'yes-no-numbers', display: "Yes, but I don't know the numbers" },
        {
          code: 'no',
          display: 'No',
          flag: {
            code: 'no-recent-bp',
            severity: 'caution',
            text: 'No blood pressure reading in the last 12 months: consider requesting one before prescribing.',
          },
        },
      ],
    },
    {
      linkId: 'bp_systolic',
      type: 'integer',
      text: 'What was the top number (systolic)?',
      helpText: 'In a reading of 128/82, the top number is 128.',
      unit: 'mmHg',
      min: 50,
      max: 300,
      enableWhen: [{ question: 'bp_measured', operator: '=', answer: 'yes-numbers' }],
      disqualifyOutside: { min: 90, max: 170, reason: BP_READING_REASON },
    },
    {
      linkId: 'bp_diastolic',
      type: 'integer',
      text: 'What was the bottom number (diastolic)?',
      helpText: 'In a reading of 128/82, the bottom number is 82.',
      unit: 'mmHg',
      min: 20,
      max: 200,
      enableWhen: [{ question: 'bp_measured', operator: '=', answer: 'yes-numbers' }],
      disqualifyOutside: { min: 50, max: 110, reason: BP_READING_REASON },
    },
    {
      linkId: 'bp_date',
      type: 'date',
      text: 'About when was your blood pressure last measured?',
      helpText: 'An approximate date is fine.',
      enableWhen: [{ question: 'bp_measured', operator: '!=', answer: 'no' }],
    },
    // Other health conditions
    {
      linkId: 'conditions',
      type: 'multi-choice',
      text: 'Do you have, or have you had, any of these?',
      options: [
        {
          code: 'severe-liver-disease',
          display: 'Severe liver disease, such as cirrhosis or liver failure',
          disqualify:
            "Severe liver disease changes how your body clears ED medicines and needs your specialist's advice. Please talk with your doctor in person about erection problems.",
        },
        {
          code: 'severe-kidney-disease',
          display: 'Severe kidney disease, or dialysis',
          disqualify:
            'Severe kidney disease and dialysis change how your body clears ED medicines and often affect blood pressure. Please talk with your kidney doctor in person about erection problems.',
        },
        {
          code: 'mild-liver-kidney-disease',
          display: 'Mild or moderate liver or kidney disease',
          flag: {
            code: 'hepatic-renal-impairment',
            severity: 'caution',
            text: 'Mild to moderate liver or kidney impairment: consider a lower starting dose and the label dose limits.',
          },
        },
        {
          code: 'diabetes',
          display: 'Diabetes',
          flag: {
            code: 'diabetes',
            severity: 'info',
            text: 'Diabetes: common organic cause of ED; check glucose control; may respond less to PDE5 inhibitors.',
          },
        },
        {
          code: 'priapism-risk',
          display: 'Sickle cell disease, multiple myeloma or leukemia',
          flag: {
            code: 'priapism-predisposition',
            severity: 'caution',
            text: 'Condition predisposing to priapism: PDE5 inhibitor caution per label.',
          },
        },
        {
          code: 'bleeding-ulcer',
          display: 'A bleeding disorder, or a stomach ulcer that is active now',
          flag: {
            code: 'bleeding-or-ulcer',
            severity: 'caution',
            text: 'Bleeding disorder or active peptic ulcer: PDE5 inhibitor safety not established per label.',
          },
        },
        {
          code: 'low-testosterone',
          display: 'Low testosterone',
          flag: {
            code: 'hypogonadism',
            severity: 'info',
            text: 'Low testosterone reported: review treatment and levels.',
          },
        },
        {
          code: 'depression-anxiety',
          display: 'Depression or anxiety',
          flag: {
            code: 'mood-disorder',
            severity: 'info',
            text: 'Depression or anxiety: common contributor to ED; SSRIs and SNRIs can cause ED.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'eye_ear_conditions',
      type: 'multi-choice',
      text: 'Have you ever had any of these eye or hearing problems?',
      options: [
        {
          code: 'retinitis-pigmentosa',
          display: 'Retinitis pigmentosa (an inherited eye disease)',
          disqualify:
            "ED medicines act on a protein in the retina, and people with retinitis pigmentosa weren't included in their safety studies, so these medicines aren't recommended for you. Please talk with your eye doctor and a doctor in person about other options.",
        },
        {
          code: 'naion',
          display:
            'Sudden loss of vision in one eye from reduced blood flow to the optic nerve (NAION, sometimes called an “eye stroke”)',
          disqualify:
            "People who have had NAION have a higher chance of it happening again, and ED medicines may add to that risk, so we can't prescribe them online. Please talk with your eye doctor about whether any ED treatment is safe for you.",
        },
        {
          code: 'unexplained-vision-loss',
          display: "Sudden loss or change of vision in either eye that hasn't been explained",
          disqualify:
            "Sudden vision loss that hasn't been explained needs an eye doctor's exam before you take ED medicine. If it is happening now, go to an emergency room today.",
        },
        {
          code: 'sudden-hearing-loss',
          display: 'Sudden loss of hearing',
          flag: {
            code: 'sudden-hearing-loss',
            severity: 'caution',
            text: 'Prior sudden hearing loss: PDE5 inhibitor label warning; counsel to stop and seek care if it happens.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'penile_history',
      type: 'multi-choice',
      text: 'Have you had any of these?',
      options: [
        {
          code: 'priapism',
          display: 'An erection that lasted more than 4 hours',
          flag: {
            code: 'priapism-history',
            severity: 'caution',
            text: 'History of priapism: PDE5 inhibitor caution; lowest dose; counsel to get emergency care for an erection lasting over 4 hours.',
          },
        },
        {
          code: 'curvature',
          display:
            "A curve or bend in your penis when erect, a lump, or pain with erections (such as Peyronie's disease)",
          flag: {
            code: 'penile-deformity',
            severity: 'caution',
            text: "Penile angulation or Peyronie's disease: PDE5 inhibitor caution per label; consider urology.",
          },
        },
        {
          code: 'penile-surgery',
          display: 'Surgery on your penis, or a penile implant',
          flag: {
            code: 'penile-surgery',
            severity: 'caution',
            text: 'Prior penile surgery or implant: clarify history; consider urology.',
          },
        },
        none,
      ],
    },
    // ED treatment so far
    {
      linkId: 'ed_treatments_tried',
      type: 'multi-choice',
      text: 'Which ED treatments have you taken, now or in the past?',
      options: [
        { code: 'sildenafil', display: 'Sildenafil (Viagra or generic)' },
        { code: 'tadalafil', display: 'Tadalafil (Cialis or generic)' },
        { code: 'vardenafil', display: 'Vardenafil (Levitra, Staxyn)' },
        { code: 'avanafil', display: 'Avanafil (Stendra)' },
        {
          code: 'other-treatment',
          display: 'Another treatment, such as injections, a urethral pellet or a vacuum pump',
          flag: {
            code: 'other-ed-treatment',
            severity: 'info',
            text: 'Has used second-line ED treatment: ask about response and urology care.',
          },
        },
        { code: 'none', display: "None — I haven't tried an ED treatment", exclusive: true },
      ],
    },
    {
      linkId: 'ed_treatment_response',
      type: 'choice',
      text: 'How well did the ED medicine work for you?',
      enableBehavior: 'any',
      enableWhen: [
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'sildenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'tadalafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'vardenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'avanafil' },
      ],
      options: [
        { code: 'well', display: 'It worked well' },
        { code: 'partly', display: 'It helped a little' },
        {
          code: 'not-at-all',
          display: "It didn't help",
          flag: {
            code: 'pde5-non-response',
            severity: 'info',
            text: 'No response to a PDE5 inhibitor: check dose, timing (sildenafil with a heavy meal), number of attempts and sexual stimulation; consider urology.',
          },
        },
        { code: 'not-sure', display: "I'm not sure, or I only tried it once" },
      ],
    },
    {
      linkId: 'ed_treatment_side_effects',
      type: 'multi-choice',
      text: 'Did you have any of these side effects?',
      enableBehavior: 'any',
      enableWhen: [
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'sildenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'tadalafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'vardenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'avanafil' },
      ],
      options: [
        {
          code: 'common',
          display: 'Headache, flushing, a stuffy nose, indigestion or back or muscle aches',
        },
        {
          code: 'dizziness-fainting',
          display: 'Dizziness or fainting',
          flag: {
            code: 'pde5-hypotension',
            severity: 'high',
            text: 'Dizziness or fainting on a PDE5 inhibitor: possible hypotension; review blood pressure and other medicines.',
          },
        },
        {
          code: 'vision-hearing',
          display: 'Changes in your vision or hearing',
          flag: {
            code: 'pde5-vision-hearing',
            severity: 'high',
            text: 'Vision or hearing change on a PDE5 inhibitor: assess for NAION or sudden hearing loss before re-prescribing.',
          },
        },
        {
          code: 'long-erection',
          display: 'An erection that lasted more than 4 hours',
          flag: {
            code: 'pde5-priapism',
            severity: 'high',
            text: 'Priapism on a PDE5 inhibitor: reassess the dose and the suitability of treatment.',
          },
        },
        {
          code: 'allergy',
          display: 'An allergic reaction, such as a rash, swelling or trouble breathing',
          flag: {
            code: 'pde5-hypersensitivity',
            severity: 'high',
            text: 'Allergic reaction to a PDE5 inhibitor: confirm which one; hypersensitivity is a contraindication to that medicine.',
          },
        },
        none,
      ],
    },
    {
      linkId: 'ed_treatment_current',
      type: 'boolean',
      text: 'Are you taking any of these ED medicines now?',
      enableBehavior: 'any',
      enableWhen: [
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'sildenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'tadalafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'vardenafil' },
        { question: 'ed_treatments_tried', operator: 'includes', answer: 'avanafil' },
      ],
      flagWhen: {
        answer: true,
        flag: {
          code: 'current-pde5-inhibitor',
          severity: 'info',
          text: 'Currently taking a PDE5 inhibitor: confirm the product, dose and where it comes from; avoid doubling up.',
        },
      },
    },
    // Other medicines, allergies and substances
    {
      linkId: 'other_medicines',
      type: 'boolean',
      text: 'Do you take any other prescription or over-the-counter medicines or supplements, including “male enhancement” products?',
      helpText:
        'Some “natural” enhancement products contain hidden sildenafil or tadalafil, so please include them.',
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
      text: 'Are you allergic to any medicines?',
    },
    {
      linkId: 'allergies_list',
      type: 'text',
      text: 'Which medicines, and what happened?',
      maxLength: 1000,
      enableWhen: [{ question: 'allergies', operator: '=', answer: true }],
    },
    {
      linkId: 'substances',
      type: 'multi-choice',
      text: 'Do any of these apply to you?',
      helpText: 'Your answers are confidential and help your provider keep you safe.',
      options: [
        {
          code: 'heavy-alcohol',
          display: '5 or more alcoholic drinks at one time, or more than 14 drinks a week',
          flag: {
            code: 'heavy-alcohol',
            severity: 'caution',
            text: 'Heavy alcohol use: adds to low blood pressure on standing with a PDE5 inhibitor and contributes to ED.',
          },
        },
        {
          code: 'stimulants',
          display: 'Cocaine, methamphetamine or other stimulants not prescribed to you',
          flag: {
            code: 'stimulant-use',
            severity: 'high',
            text: 'Stimulant use: cardiovascular risk (ischemia, arrhythmia) with sexual activity.',
          },
        },
        {
          code: 'nicotine',
          display: 'Cigarettes, vaping or other nicotine',
          flag: {
            code: 'nicotine',
            severity: 'info',
            text: 'Nicotine: vascular risk factor for ED; offer help to quit.',
          },
        },
        { code: 'cannabis', display: 'Cannabis' },
        none,
      ],
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
