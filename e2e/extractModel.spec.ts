import type { OpenAIRequestBody } from '../src/test/servers/openaiServer.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { assignRole, priceModel, useEndpoint } from './endpoints.ts';
import { expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

// A ferry desk of our own: three flows, two of which ask for the ticket first.
const PROMPT = [
  '# Boarding',
  '',
  'Check the passenger ticket before anything else.',
  'Board cars only after every foot passenger is aboard.',
  '',
  '# Refunds',
  '',
  'Check the passenger ticket before anything else.',
  'Refund a crossing only when it was cancelled by the line.',
  '',
  '# Tone',
  '',
  'Speak calmly when the sea is rough.',
  '',
].join('\n');

const rule = (text: string, category: string, tools: string[] = []) => ({
  text,
  category,
  challenge: 2,
  tools,
  quote: text,
});

const ANSWERS: Record<string, object[]> = {
  Boarding: [
    rule('Check the passenger ticket before anything else.', 'authentication'),
    rule('Board cars only after every foot passenger is aboard.', 'general'),
  ],
  Refunds: [
    rule('Check the passenger ticket before anything else.', 'authentication'),
    rule('Refund a crossing only when it was cancelled by the line.', 'refunds', ['teleport']),
  ],
  Tone: [rule('Speak calmly when the sea is rough.', 'communication')],
};

test('a model extracts policies: the estimate, the diff, the spent line, only the ticked ones added', async ({
  workbench,
  page,
}) => {
  let calls = 0;
  const server = await startOpenAIServer({
    script: (request) => {
      const body = request.body as OpenAIRequestBody;
      if (body.response_format === undefined) return undefined;
      calls++;
      const content = body.messages?.[0]?.content;
      const title = /The section \("(.+?)"\)/.exec(typeof content === 'string' ? content : '')?.[1];
      return { text: JSON.stringify({ policies: ANSWERS[title ?? ''] ?? [] }) };
    },
  });
  try {
    await workbench.open();
    await useEndpoint(page, server.url);
    await priceModel(page, '0.5', '1.5');
    await assignRole(page, 'Generator');
    await workbench.editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(PROMPT);

    await page.getByRole('button', { name: 'Extract policies' }).click();
    const dialog = page.getByRole('dialog', { name: 'Extract policies' });
    await dialog.getByRole('tab', { name: 'Ask a model' }).click();
    await expect(dialog.getByLabel('Estimate')).toContainText(
      'To read 3 sections (3 flows) with sim-model: about 3 calls',
    );
    await dialog.getByRole('button', { name: 'Ask the model' }).click();
    await expect(dialog.getByLabel('Spent')).toContainText('Spent 3 calls', { timeout: 60_000 });
    expect(calls).toBe(3);

    // The ticket rule both flows state is one proposal naming both.
    const proposals = dialog.getByRole('list', { name: 'Proposals' });
    await expect(proposals.getByRole('checkbox')).toHaveCount(4);
    await expect(proposals.getByText('Flows: Boarding, Refunds.')).toBeVisible();
    await dialog.getByText('1 problem with the answers').click();
    await expect(dialog.getByLabel('Problems')).toContainText('“teleport” is not a tool');

    const diff = dialog.getByLabel('Changes to policies.yaml');
    await expect(diff).toContainText('flows: [Boarding, Refunds]');
    await expect(diff).toContainText('Speak calmly when the sea is rough.');
    await proposals
      .getByRole('listitem')
      .filter({ hasText: 'Speak calmly' })
      .getByRole('checkbox')
      .uncheck();
    await expect(diff).not.toContainText('Speak calmly');

    await dialog.getByRole('button', { name: 'Add 3 policies to policies.yaml' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('tab', { name: /policies\.yaml/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await workbench.countMatches('text: Check the passenger ticket')).toBe('1 of 1');
    expect(await workbench.countMatches('text: Board cars only')).toBe('1 of 1');
    expect(await workbench.countMatches('text: Refund a crossing')).toBe('1 of 1');
    expect(await workbench.countMatches('Speak calmly')).toBe('No results');
  } finally {
    await server.close();
  }
});
