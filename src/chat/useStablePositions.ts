import { useMemo, useRef } from 'react';
import { type ChatMessage, type SiblingPosition, siblingPosition } from '../../machines/messageTree';

const samePosition = (a: SiblingPosition, b: SiblingPosition) =>
  a.index === b.index && a.count === b.count && a.previous === b.previous && a.next === b.next;

/**
 * "‹ 2 / 3 ›" of each message on screen, by id. A position that did not change keeps its object, so
 * the messages it belongs to do not render again when a message is added at the end.
 */
export function useStablePositions(messages: ChatMessage[], tree: ChatMessage[]) {
  const previous = useRef(new Map<string, SiblingPosition>());
  return useMemo(() => {
    const positions = new Map<string, SiblingPosition>();
    const children = new Map<string | null, ChatMessage[]>();
    for (const message of tree)
      children.set(message.parent, [...(children.get(message.parent) ?? []), message]);
    for (const message of messages) {
      const position = siblingPosition(children.get(message.parent) ?? [message], message);
      const kept = previous.current.get(message._id);
      positions.set(message._id, kept && samePosition(kept, position) ? kept : position);
    }
    previous.current = positions;
    return positions;
  }, [messages, tree]);
}
