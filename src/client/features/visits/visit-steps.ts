/** The visit's screens as the step indicator names them, in order. */
export const visitStepLabels = [
  ['eligibility', 'Eligibility'],
  // A visitor creates their account (or logs in) here, inside the visit; a patient has one.
  ['account', 'Account'],
  ['questions', 'Health questions'],
  ['preferences', 'Treatment'],
  ['photo', 'Photo ID'],
  ['consent', 'Consent'],
  ['checkout', 'Payment'],
] as const;

export type VisitScreen = (typeof visitStepLabels)[number][0];

/** A renewal's screens (issue 29): its questions, then sending them to the provider. */
export const renewalStepLabels = [
  ['questions', 'Your answers'],
  ['send', 'Send to your provider'],
] as const;

export type StepLabels = readonly (readonly [string, string])[];
