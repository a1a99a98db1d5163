/** Response and error bodies as OpenAI's Chat Completions API sends them, for local stand-in servers. */
export const completion = (message: Record<string, unknown>, finish_reason = 'stop') => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_790_000_000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, logprobs: null, finish_reason }],
  usage: { prompt_tokens: 200, completion_tokens: 80, total_tokens: 280 },
});

export const apiError = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });
