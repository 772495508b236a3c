/**
 * A spending warning from the event stream, in the reader's language: its scope and amounts (money in
 * dollars, or LLM calls). An event stored by an older build has only its English message: the
 * warning is then said without amounts rather than in English.
 */
import type { MessageKey } from '../../i18n';
import type { SessionEvent } from '../../types/events';
import { usd } from '../charts/format';
import { scopeLabel } from '../panels/api-errors';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;
type BudgetWarningEvent = Extract<SessionEvent, { type: 'budget.warning' }>;

export function describeBudgetWarning(w: BudgetWarningEvent, t: Translate): string {
	const scope = scopeLabel(w.scope, t);
	if (w.unit === undefined || w.spent === undefined || w.warnAt === undefined) return t('playError.budgetWarningPlain', { scope });
	const amount = (n: number) => (w.unit === 'micros' ? usd(n) : t('playError.calls', { n }));
	const params = { scope, spent: amount(w.spent), warnAt: amount(w.warnAt) };
	return w.limit === undefined
		? t('playError.budgetWarning', params)
		: t('playError.budgetWarningLimit', { ...params, limit: amount(w.limit) });
}
