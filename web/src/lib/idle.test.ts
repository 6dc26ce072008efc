import { describe, expect, it, vi } from 'vitest';

describe('whenIdle', () => {
  it('waits for the first page to be on screen, then runs once the browser is idle', async () => {
    vi.resetModules();
    const { markPageShown, whenIdle } = await import('./idle');
    const task = vi.fn();
    whenIdle(task);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(task).not.toHaveBeenCalled();

    markPageShown();
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
  });

  it('runs nothing once cancelled', async () => {
    vi.resetModules();
    const { markPageShown, whenIdle } = await import('./idle');
    const task = vi.fn();
    const cancel = whenIdle(task);
    markPageShown();
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(task).not.toHaveBeenCalled();
  });

  it('does not wait for a page for ever', async () => {
    vi.useFakeTimers();
    vi.resetModules();
    const { whenIdle } = await import('./idle');
    const task = vi.fn();
    whenIdle(task);
    await vi.advanceTimersByTimeAsync(4900);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(400);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
