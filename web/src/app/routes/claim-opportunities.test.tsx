import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, callsTo, json, stubApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

const APPLY = '/api/v1/opportunities/applications';
const MINE = '/api/v1/opportunities/applications/mine';

const saved = {
  id: 'a1',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+14155552671',
  instagram: 'ada.l',
  location: 'London',
  bio: null,
  interests: ['Fashion Modeling'],
  createdAt: '2026-11-20T10:00:00Z',
  contactedAt: null,
};

const notApplied = () => apiError(404, 'not_found', 'You have not applied yet');

async function fillGoodForm(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Full name', {}, { timeout: 5000 }), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Phone (optional)'), '+14155552671');
  await user.type(screen.getByLabelText('Instagram (optional)'), '@ada.l');
  await user.type(screen.getByLabelText('Location'), 'London');
  await user.click(screen.getByRole('checkbox', { name: 'Fashion Modeling' }));
  await user.click(screen.getByRole('checkbox', { name: /I agree to the terms/ }));
}

describe('/claim-opportunities', () => {
  it('asks visitors to sign in and come back to the form', async () => {
    stubApi({});
    renderApp('/claim-opportunities');
    const prompt = within(await screen.findByTestId('opportunities-sign-in', {}, { timeout: 5000 }));
    expect(prompt.getByText(/Please sign in to continue/)).toBeInTheDocument();
    expect(prompt.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth?returnTo=%2Fclaim-opportunities');
    expect(screen.getByText('Our team will contact you within 48 hours')).toBeInTheDocument();
  });

  it('shows the first broken rule only, then sends a good application once', async () => {
    const fetchMock = stubApi({ [`GET ${MINE}`]: notApplied, [`POST ${APPLY}`]: () => json(saved, 201) });
    const { user } = renderApp('/claim-opportunities', { user: 'signed-in' });
    const name = await screen.findByLabelText('Full name', {}, { timeout: 5000 });
    // The account's address, shown, not typed: the confirmation goes there.
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription(/Your account's address: the confirmation and our reply go there/);

    await user.type(screen.getByLabelText('Phone (optional)'), '12-34');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(screen.queryByText(/E\.164/)).not.toBeInTheDocument();
    expect(name).toHaveFocus();

    await user.type(name, 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('Phone must be in E.164 format (e.g., +14155552671)')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', APPLY)).toHaveLength(0);

    await user.clear(screen.getByLabelText('Phone (optional)'));
    await user.type(screen.getByLabelText('Phone (optional)'), '+14155552671');
    await user.type(screen.getByLabelText('Location'), 'London');
    await user.click(screen.getByRole('checkbox', { name: 'Fashion Modeling' }));
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('You must agree to the terms')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /I agree to the terms/ }));
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));

    expect(await screen.findByText('Application submitted! Our team will contact you within 48 hours.')).toBeInTheDocument();
    expect(await screen.findByTestId('application-received')).toHaveTextContent('Ada Lovelace');
    const [sent] = callsTo(fetchMock, 'POST', APPLY);
    expect(await sent!.json()).toEqual({
      fullName: 'Ada Lovelace',
      phone: '+14155552671',
      location: 'London',
      interests: ['Fashion Modeling'],
      agreeTerms: true,
    });
  });

  it('says a duplicate is a duplicate and shows the application on file', async () => {
    let applied = false;
    stubApi({
      [`GET ${MINE}`]: () => (applied ? json(saved) : notApplied()),
      [`POST ${APPLY}`]: () => {
        applied = true;
        return apiError(409, 'already_applied', "You've already submitted an application");
      },
    });
    const { user } = renderApp('/claim-opportunities', { user: 'signed-in' });
    await fillGoodForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText("You've already submitted an application")).toBeInTheDocument();
    expect(await screen.findByTestId('application-received')).toBeInTheDocument();
  });

  it('puts the server’s rule on its field, and says so when the server fails', async () => {
    let answer = () => apiError(422, 'validation_failed', 'Location must be less than 200 characters');
    stubApi({ [`GET ${MINE}`]: notApplied, [`POST ${APPLY}`]: () => answer() });
    const { user } = renderApp('/claim-opportunities', { user: 'signed-in' });
    await fillGoodForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('Location must be less than 200 characters')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveAttribute('aria-invalid', 'true'));

    answer = () => apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText('Failed to submit application. Please try again.')).toBeInTheDocument();
  });

  it('says why when the server refuses for a reason about no field (an unconfirmed address)', async () => {
    const message = 'Please confirm your email address first: the team answers applications there';
    stubApi({ [`GET ${MINE}`]: notApplied, [`POST ${APPLY}`]: () => apiError(422, 'validation_failed', message) });
    const { user } = renderApp('/claim-opportunities', { user: 'signed-in' });
    await fillGoodForm(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).not.toHaveAttribute('aria-invalid');
  });

  it('shows a contacted application as answered', async () => {
    stubApi({ [`GET ${MINE}`]: () => json({ ...saved, contactedAt: '2026-11-21T09:00:00Z' }) });
    renderApp('/claim-opportunities', { user: 'signed-in' });
    expect(await screen.findByText(/Our team has been in touch/, {}, { timeout: 5000 })).toBeInTheDocument();
  });
});

describe('/admin/opportunities', () => {
  it('lists applications with their wait and marks one contacted', async () => {
    const fetchMock = stubApi({
      'GET /api/v1/admin/access': () => new Response(null, { status: 204 }),
      'GET /api/v1/admin/opportunities': () => json([saved]),
      'POST /api/v1/admin/opportunities/a1/contacted': () => json({ ...saved, contactedAt: '2026-11-21T09:00:00Z' }),
    });
    const { user } = renderApp('/admin/opportunities', { user: 'signed-in' });
    const card = within(await screen.findByRole('listitem', { name: 'Ada Lovelace' }, { timeout: 5000 }));
    expect(card.getByText(/overdue/)).toBeInTheDocument();
    expect(card.getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', 'mailto:ada@example.com');
    await user.click(card.getByRole('button', { name: 'Mark Contacted' }));
    expect(await screen.findByText('Marked as contacted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/v1/admin/opportunities/a1/contacted')).toHaveLength(1);
  });
});
