import type { Provider } from '../../providers/types';
import { ProviderError } from '../../providers/types';

/**
 * Image bots: every message is a prompt, answered with one image (the organization's image settings,
 * through `generate_image`, its one tool: the image is stored, charged and shown like the tool's of a
 * model bot, and its step shows in the reply). The reply's text is the prompt the service used.
 */
export const imageProvider: Provider = async function* ({ text, tools, signal }) {
  if (!tools || signal.aborted) return;
  const result = await tools.call({
    id: 'image',
    name: 'generate_image',
    arguments: JSON.stringify({ prompt: text }),
  });
  let image: { _id?: unknown; revisedPrompt?: unknown } | null = null;
  try {
    image = JSON.parse(result);
  } catch {
    // Not the image's record: what went wrong, as the model would read it.
  }
  if (typeof image?._id !== 'string') throw new ProviderError(result.replace(/^Error: /, ''), 'IMAGE_FAILED');
  yield typeof image.revisedPrompt === 'string' ? image.revisedPrompt : text;
};
