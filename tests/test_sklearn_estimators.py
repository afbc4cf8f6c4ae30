"""dtlearn.sklearn: TreeClassifier and TreeRegressor as scikit-learn estimators.

scikit-learn's own `parametrize_with_checks` runs its estimator checks on every algorithm; the
one check that cannot hold for an unpruned tree is declared with `expected_failed_checks`
(dtlearn.sklearn.expected_failed_checks says why). Beyond the checks: the estimator grows the
very tree `dtlearn.fit` grows (categorical columns as categories, settings passed through,
class weights keyed by y's own labels), CART equals scikit-learn's DecisionTreeClassifier and
DecisionTreeRegressor (the peer) on numeric data, with ccp_alpha pruning as scikit-learn's,
and it works in Pipeline, cross_val_score and GridSearchCV, and pickles.
"""

from __future__ import annotations

import dataclasses
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

import dtlearn
import exact
from dtlearn.sklearn import TreeClassifier, TreeRegressor, expected_failed_checks

ESTIMATORS = [TreeClassifier(), TreeClassifier(algorithm="id3"), TreeClassifier(algorithm="c45"),
              TreeClassifier(algorithm="c45", prune=True), TreeClassifier(algorithm="zaki"),
              TreeRegressor(), TreeRegressor(algorithm="zaki"), TreeRegressor(leaf_value="median")]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def tennis():
    data = dtlearn.load_dataset("tennis")
    return data, data.frame.drop(columns=data.target), data.frame[data.target]


# the parameters are dtlearn's settings ------------------------------------------------------

def test_the_parameters_are_the_settings():
    # every dtlearn setting is a parameter (but `task`, which the estimator's class decides),
    # so a setting added to Settings without its parameter fails here
    settings = {f.name for f in dataclasses.fields(dtlearn.Settings)}
    classifier = set(TreeClassifier().get_params())
    assert classifier == (settings - {"task", "leaf_value"}) | {"ccp_alpha"}
    regressor = set(TreeRegressor().get_params())
    assert regressor <= (settings | {"ccp_alpha"}) and "leaf_value" in regressor and "priors" not in regressor


def test_the_parameters_are_keyword_only_and_stored_as_given():
    with pytest.raises(TypeError):
        TreeClassifier("id3")
    model = TreeClassifier(algorithm="c45", max_depth=3, class_weight={"Yes": 2})
    assert model.get_params()["max_depth"] == 3 and model.get_params()["class_weight"] == {"Yes": 2}
    assert repr(model) == "TreeClassifier(algorithm='c45', class_weight={'Yes': 2}, max_depth=3)"


def test_a_bad_setting_is_reported_when_fitting():
    data, X, y = tennis()
    model = TreeClassifier(criterion="gain")  # stored as given, checked by fit
    with pytest.raises(ValueError, match="criterion"):
        model.fit(X, y)
    with pytest.raises(ValueError, match="Unknown algorithm"):
        TreeClassifier(algorithm="c50").fit(X, y)


# the same tree as dtlearn.fit -----------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["id3", "c45", "cart", "zaki"])
def test_the_estimator_grows_the_tree_dtlearn_grows(algorithm):
    # PlayTennis (Mitchell 1997) as a DataFrame of text columns: categorical, no one-hot
    data, X, y = tennis()
    model = TreeClassifier(algorithm=algorithm).fit(X, y)
    tree = dtlearn.fit(data, algorithm)
    assert model.tree_.to_dot() == tree.to_dot()
    assert [s.reason for s in model.tree_.steps] == [s.reason for s in tree.steps]
    pd.testing.assert_frame_equal(model.tree_.steps[0].table, tree.steps[0].table)
    assert list(model.predict(X)) == list(tree.predict(X))
    np.testing.assert_array_equal(model.predict_proba(X), tree.predict_proba(X))
    np.testing.assert_array_equal(model.apply(X), tree.apply(X))
    assert model.score(X, y) == dtlearn.accuracy(tree, data)
    assert list(model.feature_names_in_) == list(X.columns) and model.n_features_in_ == 4


def test_categorical_columns_stay_categories():
    # ID3 (Quinlan 1986) splits outlook three ways at the root: one branch per value
    data, X, y = tennis()
    model = TreeClassifier(algorithm="id3").fit(X, y)
    assert model.tree_.kinds == {"outlook": "categorical", "temperature": "categorical",
                                 "humidity": "categorical", "wind": "categorical"}
    assert model.tree_.root.test.attribute == "outlook" and len(model.tree_.root.children) == 3
    # numbers in a pandas category column are values, not a scale: a multiway split, not a cut
    frame = pd.DataFrame({"grade": pd.Categorical([1, 2, 3, 1, 2, 3]), "y": ["a", "b", "c", "a", "b", "c"]})
    model = TreeClassifier(algorithm="c45", min_branch_cases=1).fit(frame[["grade"]], frame["y"])
    assert model.tree_.kinds["grade"] == "categorical" and len(model.tree_.root.children) == 3


def test_an_array_of_strings_is_read_as_categories():
    data, X, y = tennis()
    from_frame = TreeClassifier(algorithm="id3").fit(X, y)
    from_array = TreeClassifier(algorithm="id3").fit(X.to_numpy(dtype=object), y.to_numpy())
    assert from_array.tree_.kinds == {f"x{i}": "categorical" for i in range(4)}
    assert list(from_array.predict(X.to_numpy(dtype=object))) == list(from_frame.predict(X))
    assert not hasattr(from_array, "feature_names_in_")


def test_feature_names_are_checked_when_predicting():
    data, X, y = tennis()
    model = TreeClassifier(algorithm="id3").fit(X, y)
    with pytest.raises(ValueError, match="feature names"):
        model.predict(X[list(reversed(X.columns))])
    with warnings.catch_warnings(record=True) as caught:  # an array is read by position, with a warning
        warnings.simplefilter("always")
        assert list(model.predict(X.to_numpy(dtype=object))) == list(model.predict(X))
        with pytest.raises(ValueError, match="4 features"):
            model.predict(X.iloc[:, :3].to_numpy(dtype=object))
    assert any("feature names" in str(w.message) for w in caught)


def test_classes_keep_the_labels_and_type_of_y():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    for y in (np.array([3, 3, 7, 7, 11, 11]), np.array(["b", "b", "a", "a", "c", "c"]),
              np.array([True, True, False, False, True, True])):
        model = TreeClassifier().fit(X, y)
        np.testing.assert_array_equal(model.classes_, np.unique(y))
        predicted = model.predict(X)
        assert predicted.dtype == y.dtype
        np.testing.assert_array_equal(predicted, y)  # grown until pure: the training rows come back


def test_class_weights_are_keyed_by_the_labels_of_y():
    # the tree is grown with the weights dtlearn.fit takes by class name
    X, y = datasets.load_iris(return_X_y=True)
    weights = {0: 1.0, 1: 5.0, 2: 0.5}
    model = TreeClassifier(class_weight=weights, max_depth=2).fit(X, y)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(4)]).assign(**{"class": pd.Categorical(y)})
    direct = dtlearn.fit(dtlearn.Dataset(frame, "class"), "cart", class_weight={"0": 1.0, "1": 5.0, "2": 0.5},
                         max_depth=2)
    assert model.tree_.to_dot() == direct.to_dot()
    assert model.tree_.to_dot() != TreeClassifier(max_depth=2).fit(X, y).tree_.to_dot()
    with pytest.raises(ValueError, match="not a class"):
        TreeClassifier(class_weight={4: 2.0}).fit(X, y)


def test_missing_values_are_the_algorithms_business():
    # C4.5's fractional cases (Quinlan 1993): the estimator's tree is dtlearn's on the same table
    data = dtlearn.load_dataset("watermelon_2alpha")
    X, y = data.frame.drop(columns=data.target), data.frame[data.target]
    assert X.isna().any().any()
    model = TreeClassifier(algorithm="c45").fit(X, y)
    tree = dtlearn.fit(data, "c45")
    assert model.tree_.to_dot() == tree.to_dot()
    np.testing.assert_allclose(model.predict_proba(X), tree.predict_proba(X))


# CART against scikit-learn's trees (the peer) ----------------------------------------------

@pytest.mark.parametrize("settings", [{}, {"max_depth": 2}, {"min_samples_leaf": 5}, {"criterion": "entropy"}])
def test_cart_equals_scikit_learns_decision_tree_on_iris(settings):
    X, y = datasets.load_iris(return_X_y=True)
    ours = TreeClassifier(**settings).fit(X, y)
    theirs = DecisionTreeClassifier(random_state=0, **settings).fit(X, y)
    assert exact.partition_of(ours.apply(X)) == exact.partition_of(theirs.apply(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-12)
    assert (ours.get_depth(), ours.get_n_leaves()) == (theirs.get_depth(), theirs.get_n_leaves())


@pytest.mark.parametrize("alpha", [0.01, 0.02, 0.05])
def test_ccp_alpha_prunes_as_scikit_learn_does(alpha):
    # cost-complexity pruning (Breiman et al. 1984) with scikit-learn's impurity risk
    X, y = datasets.load_wine(return_X_y=True)
    ours = TreeClassifier(ccp_alpha=alpha).fit(X, y)
    theirs = DecisionTreeClassifier(ccp_alpha=alpha, random_state=0).fit(X, y)
    assert ours.get_n_leaves() == theirs.get_n_leaves() < TreeClassifier().fit(X, y).get_n_leaves()
    assert exact.partition_of(ours.apply(X)) == exact.partition_of(theirs.apply(X))
    assert ours.tree_.pruning_steps  # the pruning is on record, step by step


@pytest.mark.parametrize("settings", [{"max_depth": 3}, {"min_samples_leaf": 20}])
def test_regression_equals_scikit_learns_decision_tree_on_diabetes(settings):
    X, y = datasets.load_diabetes(return_X_y=True)
    ours = TreeRegressor(**settings).fit(X, y)
    theirs = DecisionTreeRegressor(random_state=0, **settings).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)
    assert exact.partition_of(ours.apply(X)) == exact.partition_of(theirs.apply(X))
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), abs=1e-12)


# in scikit-learn's machinery ----------------------------------------------------------------

def test_in_a_pipeline():
    X, y = datasets.load_iris(return_X_y=True)
    # a threshold tree is blind to a monotone rescaling: the pipeline's leaves are the tree's alone
    pipeline = Pipeline([("scale", StandardScaler()), ("tree", TreeClassifier(algorithm="c45"))]).fit(X, y)
    alone = TreeClassifier(algorithm="c45").fit(X, y)
    assert exact.partition_of(pipeline.named_steps["tree"].apply(pipeline[:-1].transform(X))) == \
        exact.partition_of(alone.apply(X))
    np.testing.assert_array_equal(pipeline.predict(X), alone.predict(X))
    # a DataFrame passes through a transformer that keeps it one
    data, features, labels = tennis()
    keep = Pipeline([("same", FunctionTransformer(lambda frame: frame)), ("tree", TreeClassifier(algorithm="id3"))])
    assert keep.fit(features, labels).named_steps["tree"].tree_.root.test.attribute == "outlook"


def test_cross_val_score_is_the_mean_of_fits_on_the_folds():
    data, X, y = tennis()
    folds = KFold(n_splits=7, shuffle=True, random_state=1)
    scores = cross_val_score(TreeClassifier(algorithm="id3"), X, y, cv=folds)
    expected = []
    for train, test in folds.split(X):
        tree = dtlearn.fit(dtlearn.Dataset(data.frame.iloc[train].reset_index(drop=True), "play"), "id3")
        expected.append(float(np.mean(tree.predict(X.iloc[test]) == y.iloc[test].to_numpy())))
    np.testing.assert_allclose(scores, expected)


def test_grid_search_picks_the_best_cross_validated_setting():
    X, y = datasets.load_iris(return_X_y=True)
    grid = {"algorithm": ["cart", "c45"], "max_depth": [1, 2, 3]}
    folds = KFold(n_splits=5, shuffle=True, random_state=0)
    search = GridSearchCV(TreeClassifier(), grid, cv=folds).fit(X, y)
    means = {(a, d): cross_val_score(TreeClassifier(algorithm=a, max_depth=d), X, y, cv=folds).mean()
             for a in grid["algorithm"] for d in grid["max_depth"]}
    best = max(means.values())
    assert means[(search.best_params_["algorithm"], search.best_params_["max_depth"])] == best
    assert search.best_score_ == pytest.approx(best)
    assert isinstance(search.best_estimator_.tree_, dtlearn.Tree)


def test_a_fitted_estimator_pickles_with_its_tree():
    data, X, y = tennis()
    model = TreeClassifier(algorithm="c45").fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    pd.testing.assert_frame_equal(again.tree_.steps[0].table, model.tree_.steps[0].table)
    assert again.tree_.to_dot() == model.tree_.to_dot()


def test_the_fitted_tree_shows_itself_in_jupyter():
    data, X, y = tennis()
    model = TreeClassifier(algorithm="id3").fit(X, y)
    assert "outlook" in model.tree_._repr_html_() and "Step 1: Split" in model.tree_.steps[0]._repr_html_()


def test_the_fitted_tree_works_in_the_partition_view():
    # the Partitions page's rectangles, from the estimator's tree and from dtlearn.fit's
    data = dtlearn.load_dataset("internship")
    X, y = data.frame.drop(columns=data.target), data.frame[data.target]
    model = TreeClassifier().fit(X, y)
    assert dtlearn.partition(model.tree_, "gpa", "years_experience") == \
        dtlearn.partition(dtlearn.fit(data, "cart"), "gpa", "years_experience")


def test_the_fitted_tree_reopens_from_its_table_and_settings(tmp_path):
    # the app opens data, never pickled objects: the training table saved as CSV, read back and
    # grown with the tree's settings (what the app's upload and sidebar do) gives the same tree
    data = dtlearn.load_dataset("credit_risk")
    X, y = data.frame.drop(columns=data.target), data.frame[data.target]
    model = TreeClassifier(algorithm="c45", min_branch_cases=1).fit(X, y)
    path = tmp_path / "training.csv"
    model.tree_.data.frame.to_csv(path, index=False)
    settings = model.tree_.settings.to_dict()
    algorithm = settings.pop("algorithm")
    again = dtlearn.fit(dtlearn.read_csv(path, target=model.tree_.target), algorithm, **settings)
    assert again.to_dot() == model.tree_.to_dot()
