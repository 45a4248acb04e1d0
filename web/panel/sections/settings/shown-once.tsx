/** A one-time secret with a copy button; it lives only in this component's memory. */
export function ShownOnce({ text, value }: { text: string; value: string }) {
  return (
    <div class="shown-once" role="status">
      <p>{text}</p>
      <code>{value}</code>
    </div>
  );
}
