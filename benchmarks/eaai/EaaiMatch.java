package ginrummy_bench;

import ginrummy.Card;
import ginrummy.GinRummyGame;
import ginrummy.GinRummyPlayer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Random;

/**
 * ginrummy's own match runner for Neller's EAAI engine (benchmarks/strength_eaai.py compiles it
 * next to the engine's sources, which stay in their folder).
 *
 * <pre>java ginrummy_bench.EaaiMatch A B PAIRS START SEED</pre>
 *
 * A and B are "python" (the {@link PipePlayer} bridge: the process that started this one answers
 * on stdin), "simple" (SimpleGinRummyPlayer) or "marjj" (MARJJ_v5). Pair i is two games to 100 on
 * the same deals with the seats swapped: before each game, the engine's random generator (which
 * picks the starting seat and every deck) and each player's own generator are seeded from
 * (SEED, i), so both games see the same decks, and the same hand starts each one. One line per
 * game on stdout: "RESULT pair game seatOfA winner score0 score1 hands".
 */
public final class EaaiMatch {

    private EaaiMatch() {}

    static GinRummyPlayer make(String name, BufferedReader in, PrintStream out) throws Exception {
        switch (name) {
            case "python":
                return new PipePlayer(in, out);
            case "simple":
                return (GinRummyPlayer) Class.forName("ginrummy.SimpleGinRummyPlayer").getDeclaredConstructor().newInstance();
            case "marjj":
                return (GinRummyPlayer) Class.forName("ginrummy.MARJJ_v5").getDeclaredConstructor().newInstance();
            default:
                throw new IllegalArgumentException("unknown player " + name + " (python, simple, marjj)");
        }
    }

    /** Seed every java.util.Random field of the player's classes (its tie-breaks). */
    static void seedPlayer(Object player, long seed) throws Exception {
        for (Class<?> c = player.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Random.class.isAssignableFrom(f.getType()) && !java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    ((Random) f.get(player)).setSeed(seed);
                }
            }
        }
    }

    static long mix(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: EaaiMatch A B PAIRS START SEED");
            System.exit(2);
        }
        String a = args[0], b = args[1];
        int pairs = Integer.parseInt(args[2]);
        int start = Integer.parseInt(args[3]);
        long seed = Long.parseLong(args[4]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream()));  // players' prints
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        Field engineRandom = GinRummyGame.class.getDeclaredField("RANDOM");
        engineRandom.setAccessible(true);
        Random rng = (Random) engineRandom.get(null);
        GinRummyGame.setPlayVerbose(false);
        Card.getCard(0);  // load the card table
        for (int i = start; i < start + pairs; i++) {
            long gameSeed = mix(seed, i);
            for (int g = 0; g < 2; g++) {
                int seatA = g;  // game 0: A in seat 0; game 1: A in seat 1, on the same decks
                GinRummyPlayer pa = make(a, in, out);
                GinRummyPlayer pb = make(b, in, out);
                seedPlayer(pa, mix(gameSeed, 1));
                seedPlayer(pb, mix(gameSeed, 2));
                Recorder r0 = new Recorder(seatA == 0 ? pa : pb);
                GinRummyPlayer p1 = seatA == 0 ? pb : pa;
                if (pa instanceof PipePlayer) {
                    ((PipePlayer) pa).newGame(i, g);
                }
                if (pb instanceof PipePlayer) {
                    ((PipePlayer) pb).newGame(i, g);
                }
                rng.setSeed(gameSeed);
                int winner = new GinRummyGame(r0, p1).play();
                out.printf("RESULT %d %d %d %d %d %d %d%n", i, g, seatA, winner, r0.scores[0], r0.scores[1], r0.hands);
                out.flush();
            }
        }
        out.println("DONE");
        out.flush();
    }

    /** Forwards every call to the player in seat 0 and keeps the scores and the hands played. */
    static final class Recorder implements GinRummyPlayer {
        final GinRummyPlayer inner;
        int[] scores = new int[2];
        int hands = 0;

        Recorder(GinRummyPlayer inner) {
            this.inner = inner;
        }

        @Override public void startGame(int playerNum, int startingPlayerNum, Card[] cards) { inner.startGame(playerNum, startingPlayerNum, cards); }
        @Override public boolean willDrawFaceUpCard(Card card) { return inner.willDrawFaceUpCard(card); }
        @Override public void reportDraw(int playerNum, Card drawnCard) { inner.reportDraw(playerNum, drawnCard); }
        @Override public Card getDiscard() { return inner.getDiscard(); }
        @Override public void reportDiscard(int playerNum, Card discardedCard) { inner.reportDiscard(playerNum, discardedCard); }
        @Override public ArrayList<ArrayList<Card>> getFinalMelds() { return inner.getFinalMelds(); }
        @Override public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) { inner.reportFinalMelds(playerNum, melds); }
        @Override public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) { inner.reportLayoff(playerNum, layoffCard, opponentMeld); }
        @Override public void reportFinalHand(int playerNum, ArrayList<Card> hand) { inner.reportFinalHand(playerNum, hand); }

        @Override
        public void reportScores(int[] s) {
            scores = s.clone();
            hands++;
            inner.reportScores(s);
        }
    }
}
