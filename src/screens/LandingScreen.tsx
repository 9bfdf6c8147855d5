export function LandingScreen() {
  return (
    <main className="landing">
      <h1>Parley</h1>
      <p>Chat with AI bots, in your language.</p>
    </main>
  );
}
