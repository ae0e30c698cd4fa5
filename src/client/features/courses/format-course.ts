const wholeRupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });
const rupeesAndPaise = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });

/** A price in rupees, Indian style: "₹4,500", or "₹1,24,999.50" when it has paise. */
export function formatRupees(price: number): string {
  return Number.isInteger(price) ? wholeRupees.format(price) : rupeesAndPaise.format(price);
}

const DATE = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/** "22 Nov 2026" (Indian locale); a dash when there is no date. */
export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : DATE.format(date);
}
