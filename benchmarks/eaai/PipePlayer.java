package ginrummy_bench;

import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;

/**
 * A GinRummyPlayer that forwards every call, as one line, to the Python process that started the
 * JVM (stdout), and reads the answers to questions from stdin. Cards are written as the engine
 * prints them ("TC", "AH"); a missing card as "-".
 *
 * <pre>
 * events:    N pair game | S me starter c1..c10 | D player card|- | R player card
 *            F player meld;meld;... (cards joined by ',') | C score0 score1 | L player card
 * questions: U card   (answer 1 or 0: take the face-up card?)
 *            X        (answer a card: the discard)
 *            M        (answer "-" for no knock, or melds as in F; "" for none)
 * </pre>
 */
public final class PipePlayer implements GinRummyPlayer {
    private final BufferedReader in;
    private final PrintStream out;

    PipePlayer(BufferedReader in, PrintStream out) {
        this.in = in;
        this.out = out;
    }

    void newGame(int pair, int game) {
        send("N " + pair + " " + game);
    }

    private void send(String line) {
        out.println(line);
        out.flush();
    }

    private String ask(String line) {
        send(line);
        try {
            String got = in.readLine();
            if (got == null) {
                throw new IllegalStateException("the Python side closed the pipe");
            }
            return got.trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String melds(ArrayList<ArrayList<Card>> melds) {
        StringBuilder sb = new StringBuilder();
        for (ArrayList<Card> meld : melds) {
            if (sb.length() > 0) {
                sb.append(';');
            }
            for (int i = 0; i < meld.size(); i++) {
                sb.append(i > 0 ? "," : "").append(meld.get(i));
            }
        }
        return sb.toString();
    }

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        StringBuilder sb = new StringBuilder("S " + playerNum + " " + startingPlayerNum);
        for (Card c : cards) {
            sb.append(' ').append(c);
        }
        send(sb.toString());
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        return ask("U " + card).equals("1");
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        send("D " + playerNum + " " + (drawnCard == null ? "-" : drawnCard.toString()));
    }

    @Override
    public Card getDiscard() {
        String got = ask("X");
        Card c = Card.strCardMap.get(got);
        if (c == null) {
            throw new IllegalStateException("not a card: " + got);
        }
        return c;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        send("R " + playerNum + " " + discardedCard);
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        String got = ask("M");
        if (got.equals("-")) {
            return null;
        }
        ArrayList<ArrayList<Card>> melds = new ArrayList<>();
        if (got.isEmpty()) {
            return melds;
        }
        for (String part : got.split(";")) {
            ArrayList<Card> meld = new ArrayList<>();
            for (String s : part.split(",")) {
                Card c = Card.strCardMap.get(s);
                if (c == null) {
                    throw new IllegalStateException("not a card: " + s);
                }
                meld.add(c);
            }
            melds.add(meld);
        }
        return melds;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        send("F " + playerNum + " " + melds(melds));
    }

    @Override
    public void reportScores(int[] scores) {
        send("C " + scores[0] + " " + scores[1]);
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        send("L " + playerNum + " " + layoffCard);
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
        // Not needed: the hand's result comes with the scores.
    }
}
