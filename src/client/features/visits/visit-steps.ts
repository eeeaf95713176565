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
