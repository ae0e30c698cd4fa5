/** A person's name as screens and mails show it: first and last name, whichever are present. */
export function personName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim();
}
