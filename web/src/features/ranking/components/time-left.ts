/** "12 days 4 hours left", "3 hours 20 minutes left", or "Closed" once the month is over. */
export function timeLeft(seconds: number): string {
  if (seconds <= 0) return 'Closed';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return `${unit(days, 'day')} ${unit(hours, 'hour')} left`;
  if (hours > 0) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')} left`;
  return `${unit(Math.max(minutes, 1), 'minute')} left`;
}
